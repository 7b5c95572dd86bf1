#!/usr/bin/env bash
# Screenshots of the real native window (WebKitGTK) under Xvfb for the
# course features, into build/screenshots/ (English, then French):
#   course-01-library-en.png    two PDFs added with "Remember" on: Forget this PDF on each row,
#                               Add folder…, Open course…, Save course…
#   course-02-setting-en.png    Settings: "Remember processed documents on this computer", size, Clear all
#   course-03-folder-en.png     a folder being added: one line for the batch, the skipped files
#   course-04-save-en.png       Save course…: the save dialog
#   course-05-saved-en.png      the course saved
#   course-06-opened-fr.png     the French window: the course opened (Open course… then its file)
#   course-07-folder-fr.png     a folder being added, in French
#   course-08-setting-fr.png    the setting, in French
# The native dialogs are driven by typing a path (Ctrl+L). The cache lives in
# the run's own XDG_CACHE_HOME. Needs what scripts/lib/window.sh needs.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

source "$root/scripts/lib/window.sh"
window_script screenshots-course "${VIKA_SHOTS:-$root/build/screenshots}"

pdfs=$root/../shared/data/pdfs
[[ -d $pdfs ]] || die "the shared PDFs are missing ($pdfs)"
window_start 1280x800
export XDG_CACHE_HOME=$work/cache

mkdir -p "$work/docs" "$work/folder/week2" "$work/folder2"
cp "$pdfs/shannon1948_mathematical_theory_of_communication.pdf" "$work/docs/"
cp "$pdfs/he2015_resnet.pdf" "$work/docs/"
cp "$pdfs/devlin2019_bert.pdf" "$work/folder/"
cp "$pdfs/schutz2017_these_p20-22_SCANNED_MADE_fr.pdf" "$work/folder/week2/"
printf 'reading list\n' >"$work/folder/notes.txt"
printf 'x' >"$work/folder/week2/photo.png"
ln -s "$work/docs" "$work/folder/linked"
cp "$pdfs/vaswani2017_attention_is_all_you_need.pdf" "$work/folder2/"
cp "$pdfs/flajolet_martin1985_probabilistic_counting_SCANNED.pdf" "$work/folder2/"
printf 'notes\n' >"$work/folder2/todo.md"

# type_path PATH: a GTK file dialog is open; go to PATH and accept.
type_path() {
  sleep 1.5
  key ctrl+l
  sleep 0.5
  xdotool type --delay 20 "$1"
  sleep 0.5
  key Return
}

settings_on() { # locale
  printf '{"routing":"auto","k":8,"history":true,"rerank":true,"multi_query_variants":3,"describe_max":20,"remember":true,"cache_max_mb":2048,"locale":"%s"}\n' "$1" \
    >"$XDG_CONFIG_HOME/vika/settings.json"
}

# --- English ---------------------------------------------------------------
settings_on en
start_app "$work/docs/shannon1948_mathematical_theory_of_communication.pdf" "$work/docs/he2015_resnet.pdf"
sleep 2
settle 240 "$shots/course-01-library-en.png" 8
[[ ${VIKA_SHOTS_PROBE:-} == 1 ]] && { stop_app; exit 0; }
