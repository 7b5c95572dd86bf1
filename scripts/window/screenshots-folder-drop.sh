#!/usr/bin/env bash
# Screenshots of the real native window (WebKitGTK) under Xvfb while a folder is dropped onto
# it, into build/screenshots/ (English, then French):
#   course-20-folder-dropping-en.png   a folder (a subfolder, a scanned PDF, a text file) dragged
#                                      onto the library and dropped: its one progress line, and
#                                      the PDFs already searchable listed
#   course-21-folder-dropped-en.png    the batch finished: "Folder term1 added: 2 of 2 PDFs",
#                                      the text file listed as skipped, the two PDFs in the library
#   course-22-folder-dropping-fr.png, course-23-folder-dropped-fr.png   the same in French
# The drop is a real XDND drop: scripts/window/drag-source.py shows a small GTK window offering the
# folder as text/uri-list, as a file manager does, and xdotool drags it onto the library; Wails
# hands the window the folder's path (OnFileDrop) and the page calls AddDropped. Needs what
# scripts/window/lib.sh needs, and the system python3 with python3-gi and gir1.2-gtk-3.0.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-folder-drop "${VIKA_SHOTS:-$root/build/screenshots}"
/usr/bin/python3 -c 'import gi; gi.require_version("Gtk", "3.0")' 2>/dev/null ||
  die "the system python3 lacks GTK's bindings (apt-get install python3-gi gir1.2-gtk-3.0)"

pdfs=$root/../shared/data/pdfs
[[ -d $pdfs ]] || die "the shared PDFs are missing ($pdfs)"
window_start 1280x800
export XDG_CACHE_HOME=$work/cache

mkdir -p "$work/term1/week2"
cp "$pdfs/devlin2019_bert.pdf" "$work/term1/"
cp "$pdfs/schutz2017_these_p20-22_SCANNED_MADE_fr.pdf" "$work/term1/week2/"
printf 'reading list\n' >"$work/term1/notes.txt"

# drop_folder DIR: shows the drag source over the chat and drags DIR onto the library.
drop_folder() {
  /usr/bin/python3 -u "$root/scripts/window/drag-source.py" "$1" $((X + 700)) $((Y + 500)) >"$work/drag.log" 2>&1 &
  local i drag=$!
  for ((i = 0; i < 300; i++)); do # GTK's bindings can take many seconds to load on a loaded machine
    grep -qs 'drag-source ready' "$work/drag.log" && break
    sleep 0.2
  done
  grep -qs 'drag-source ready' "$work/drag.log" || die "the drag source did not start: $(cat "$work/drag.log")"
  sleep 1
  xdotool mousemove --sync $((X + 760)) $((Y + 520)) mousedown 1
  local p
  for p in "740 510" "700 500" "600 480" "400 450" "250 420" "160 420" "150 420"; do
    read -r px py <<<"$p"
    xdotool mousemove --sync $((X + px)) $((Y + py))
    sleep 0.3
  done
  xdotool mouseup 1
  sleep 1
  kill "$drag" 2>/dev/null || true # it quits when the drag ends; in case it did not
  wait "$drag" 2>/dev/null || true
}

# until_added LIMIT OUT: the batch's line does not move while a PDF is read, so settle alone
# would stop early: waits until the library has changed twice (the first PDF added, then the
# second, which ends the batch), then until it stays the same for 8 s; at most LIMIT seconds.
until_added() {
  local limit=$1 out=$2 changes=0 prev=$work/added-prev.png cur=$work/added-cur.png t0=$SECONDS
  import -window root -crop 320x800+$X+$Y "$prev"
  while ((changes < 2 && SECONDS - t0 < limit)); do
    sleep 2
    import -window root -crop 320x800+$X+$Y "$cur"
    [[ $(compare -metric AE "$prev" "$cur" null: 2>&1 || true) == 0 ]] || changes=$((changes + 1))
    mv "$cur" "$prev"
  done
  ((changes >= 2)) || say "the library changed $changes times in ${limit}s (the batch may not have ended)"
  settle $((limit - (SECONDS - t0) + 20)) "$out" 8
}

shots_dropped() { # locale first.png second.png
  printf '{"routing":"auto","k":8,"history":true,"rerank":true,"multi_query_variants":3,"describe_max":20,"remember":false,"cache_max_mb":2048,"locale":"%s"}\n' "$1" \
    >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app
  sleep 10 # the page loads (a shared machine is slow)
  settle 60 "$work/ready.png" 3
  drop_folder "$work/term1"
  sleep 3
  import -window root "$shots/$2"
  say "saved ${shots#"$root"/}/$2"
  until_added 400 "$shots/$3" # both PDFs read (one OCRed) and embedded
  stop_app
}

shots_dropped en course-20-folder-dropping-en.png course-21-folder-dropped-en.png
shots_dropped fr course-22-folder-dropping-fr.png course-23-folder-dropped-fr.png
