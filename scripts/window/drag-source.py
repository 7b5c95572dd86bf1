#!/usr/bin/python3
"""A drag source for the screenshot scripts: a small undecorated GTK window at X,Y
showing PATH's name, which offers PATH (a file or a folder) as text/uri-list when
dragged, as a file manager does. xdotool drags it onto Vika's window; the window
quits when the drag ends.

    drag-source.py PATH X Y

Needs Debian's python3-gi and gir1.2-gtk-3.0 (the system python3)."""

import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main() -> None:
    path, x, y = os.path.abspath(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    uri = GLib.filename_to_uri(path, None)
    win = Gtk.Window(title="drag-source")
    win.set_decorated(False)
    win.set_default_size(180, 48)
    win.move(x, y)
    button = Gtk.Button(label=os.path.basename(path) + "/")
    button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [Gtk.TargetEntry.new("text/uri-list", 0, 0)], Gdk.DragAction.COPY)
    button.connect("drag-data-get", lambda _w, _c, data, _i, _t: data.set_uris([uri]))
    button.connect("drag-end", lambda *_: Gtk.main_quit())
    win.add(button)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    print("drag-source ready", flush=True)
    Gtk.main()


if __name__ == "__main__":
    main()
