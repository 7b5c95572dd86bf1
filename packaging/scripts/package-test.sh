#!/usr/bin/env bash
# Install build/package/vika_*_amd64.deb into a fresh Debian root made by debootstrap
# (the suite is the first argument: bookworm, the default, or trixie), the way a user would
# (`apt-get install ./vika_*.deb`, Depends only, no Recommends), then run the installed app
# there headless, as an ordinary user with an empty environment (no display, no VIKA_*
# variables, nothing from the repository):
#   vika version                   the three assets found intact under /usr/lib/vika
#   vika ingest --json sample.pdf  page 1 text, page 2 an image only: OCR with the
#                                  Tesseract data the Depends pull in
#   vika ingest --json cours.pdf   a French page is detected as French (lingua-go trimmed)
#   vika search --json ...         dense (ONNX Runtime + USE-lite), BM25 and the default mode
# and checks that the .vika course file type is registered (shared-mime-info's database has
# the glob and the magic, the desktop database maps it to vika.desktop), that the run wrote
# nothing into the user's home and that the package's files are unchanged (dpkg --verify).
# The checks of ingest and search are packaging/scripts/headless-checks.sh, shared with the Windows
# installer's test.
#
# Run by `make test-package` after `make package`. Needs root (debootstrap, chroot, mount);
# re-runs itself with sudo otherwise. Caches under ${XDG_CACHE_HOME:-~/.cache}/vika/package-test:
#   <suite>-minbase-amd64.tar   the debootstrap result (delete it, or set VIKA_FRESH_ROOT=1,
#                               to bootstrap again)
#   apt-archives/               the .debs apt downloaded (bind-mounted into the chroot)
# The root itself is unpacked afresh each run (into a tmpfs when over 6 GB of memory are
# available) and removed on exit, mounts first.
# Mirror: $VIKA_DEBIAN_MIRROR, else the first one this machine's apt sources use for
# the suite, else http://deb.debian.org/debian (security: the same for <suite>-security).
set -euo pipefail
shopt -s inherit_errexit

start=$SECONDS
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
suite=${1:-bookworm}
case $suite in
  bookworm) release="Debian 12" ;;
  trixie) release="Debian 13" ;;
  *) printf 'test-package: unknown suite %s (bookworm or trixie)\n' "$suite" >&2; exit 2 ;;
esac
say() { printf 'test-package: %s\n' "$*" >&2; }
die() { printf 'test-package: FAIL: %s\n' "$*" >&2; exit 1; }

if [[ $(id -u) -ne 0 ]]; then
  # PATH kept: sudo's secure_path usually lacks Go's directory.
  exec sudo --preserve-env=VIKA_DEBIAN_MIRROR,VIKA_DEBIAN_SECURITY_MIRROR,VIKA_FRESH_ROOT,XDG_CACHE_HOME \
    env "PATH=$PATH" "$0" "$@"
fi
for tool in debootstrap chroot python3 go; do
  command -v "$tool" >/dev/null || die "$tool is missing (make deps installs debootstrap)"
done

cache=${XDG_CACHE_HOME:-$HOME/.cache}/vika/package-test
base=$cache/$suite-minbase-amd64.tar
archives=$cache/apt-archives
work=
chroot_dir=

# mirror_for SUITE: the first URI this machine's apt sources (one-line .list and deb822
# .sources files) give for SUITE.
mirror_for() {
  python3 - "$1" /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources <<'PY'
import sys
suite = sys.argv[1]
for path in sys.argv[2:]:
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        continue
    if path.endswith(".sources"):
        for stanza in text.split("\n\n"):
            f = {}
            for line in stanza.splitlines():
                if ":" in line and not line.startswith(("#", " ")):
                    k, v = line.split(":", 1)
                    f[k.strip().lower()] = v.split()
            if "deb" in f.get("types", []) and f.get("enabled", ["yes"]) != ["no"] and suite in f.get("suites", []):
                print(f["uris"][0]); sys.exit()
    else:
        for line in text.splitlines():
            w = [x for x in line.split("#")[0].split() if not x.startswith("[")]
            if len(w) >= 3 and w[0] == "deb" and w[2] == suite:
                print(w[1]); sys.exit()
PY
}

cleanup() {
  local status=$? m
  if [[ -n $work && -d $work ]]; then
    # Unmount everything below the work dir, deepest first, before deleting anything.
    while read -r m; do
      umount "$m" 2>/dev/null || umount -l "$m" || true
    done < <(awk -v w="$work/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r)
    if awk -v w="$work/" 'index($2, w) == 1 {found=1} END {exit !found}' /proc/mounts; then
      say "left $work in place: something is still mounted below it"
    else
      rm -rf --one-file-system -- "$work"
    fi
  fi
  say "$( ((status == 0)) && echo PASS || echo "FAILED (status $status)"): $((SECONDS - start)) s in all, clean-up included"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# in_root CMD...: run CMD as root inside the chroot with a small, clean environment.
in_root() {
  chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# as_user CMD...: run CMD as the unprivileged test user, from its home, with nothing but
# HOME, PATH and LANG in the environment (no DISPLAY, no VIKA_*).
as_user() {
  chroot --userspec=4242:4242 "$chroot_dir" /usr/bin/env -i HOME=/home/tester PATH=/usr/bin:/bin \
    LANG=C.UTF-8 /bin/sh -c 'cd "$HOME" && exec "$@"' sh "$@"
}

make_base() {
  if [[ -f $base && -z ${VIKA_FRESH_ROOT:-} ]]; then
    say "base root: cached $base"
    return
  fi
  local t=$SECONDS dir=$work/bootstrap
  say "base root: debootstrap --variant=minbase $suite from $mirror (cached afterwards in $base)"
  mkdir -p "$cache"
  debootstrap --variant=minbase --arch=amd64 "$suite" "$dir" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
  tar -C "$dir" --numeric-owner -cf "$base.partial" .
  mv -f -- "$base.partial" "$base"
  rm -rf --one-file-system -- "$dir"
  say "base root: made in $((SECONDS - t)) s"
}

prepare_root() {
  chroot_dir=$work/root
  mkdir -p "$chroot_dir" "$archives/partial"
  # In memory when there is room (the root grows to about 1.2 GB): unpacking, dpkg and the
  # clean-up then take seconds instead of minutes of disk writes.
  local avail_kb
  avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  if ((avail_kb > 6 * 1024 * 1024)); then
    mount -t tmpfs -o size=3g,mode=0755 vika-package-test "$chroot_dir"
  fi
  tar -C "$chroot_dir" --numeric-owner -xf "$base"
  echo force-unsafe-io >"$chroot_dir/etc/dpkg/dpkg.cfg.d/vika-test-unsafe-io" # no fsync: a throwaway root
  cat >"$chroot_dir/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
  cp -L /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  printf '#!/bin/sh\nexit 101\n' >"$chroot_dir/usr/sbin/policy-rc.d" # start no services
  chmod 0755 "$chroot_dir/usr/sbin/policy-rc.d"
  mount -t proc proc "$chroot_dir/proc"
  [[ -c $chroot_dir/dev/null ]] || mount --bind /dev "$chroot_dir/dev"
  mount --bind "$archives" "$chroot_dir/var/cache/apt/archives"
}

install_deb() {
  local t=$SECONDS
  cp -- "$deb" "$chroot_dir/tmp/"
  in_root apt-get update -qq >"$work/apt-update.log" 2>&1 ||
    { tail -n 20 "$work/apt-update.log" >&2; die "apt-get update failed in the chroot"; }
  # What a desktop already has, so that installing vika runs their triggers as it would there:
  # shared-mime-info (update-mime-database) and desktop-file-utils (update-desktop-database).
  in_root apt-get install -y --no-install-recommends shared-mime-info desktop-file-utils \
    >"$work/apt-desktop.log" 2>&1 || { tail -n 20 "$work/apt-desktop.log" >&2; die "apt-get install shared-mime-info failed"; }
  before=$(in_root dpkg-query -W -f='${Package}\n' | wc -l)
  in_root apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")" >"$work/apt-install.log" 2>&1 ||
    { tail -n 30 "$work/apt-install.log" >&2; die "apt-get install ./$(basename "$deb") failed"; }
  after=$(in_root dpkg-query -W -f='${Package}\n' | wc -l)
  [[ $(in_root dpkg-query -W -f='${Status}' vika) == "install ok installed" ]] || die "vika is not installed"
  grep -E '^(Need to get|After this operation)' "$work/apt-install.log" | sed 's/^/  apt: /' >&2 || true
  say "installed vika and $((after - before - 1)) dependencies on bare $suite in $((SECONDS - t)) s" \
    "(Installed-Size $(in_root dpkg-query -W -f='${Installed-Size}' vika) KiB)"
}

# install_office: LibreOffice, as the package's Recommends would bring it (their -nogui
# variants, without their own Recommends); on Debian 12 only, to keep the test short (the
# .debs are cached in apt-archives).
install_office() {
  local t=$SECONDS
  in_root apt-get install -y --no-install-recommends libreoffice-impress-nogui libreoffice-writer-nogui \
    >"$work/apt-office.log" 2>&1 || { tail -n 20 "$work/apt-office.log" >&2; die "apt-get install LibreOffice failed"; }
  say "installed LibreOffice (impress and writer, -nogui) in $((SECONDS - t)) s"
}

# check_file_types: a double-click on a .vika file opens it in Vika: installing the package ran
# shared-mime-info's trigger (the type in the compiled MIME database, glob and magic) and
# desktop-file-utils' (the desktop database maps the type to vika.desktop).
check_file_types() {
  local mime=$chroot_dir/usr/share/mime
  [[ -f $mime/packages/vika.xml ]] || die "/usr/share/mime/packages/vika.xml is not installed"
  grep -qxF '50:application/x-vika-course:*.vika' "$mime/globs2" ||
    die "the mime database has no *.vika glob (update-mime-database did not run?)"
  [[ -f $mime/application/x-vika-course.xml ]] || die "the mime database has no application/x-vika-course"
  grep -qaF 'application/x-vika-course' "$mime/magic" || die "the mime database has no magic for course files"
  grep -qE '^MimeType=.*application/x-vika-course;' "$chroot_dir/usr/share/applications/vika.desktop" ||
    die "vika.desktop does not open application/x-vika-course"
  grep -qE '^Exec=vika %F$' "$chroot_dir/usr/share/applications/vika.desktop" || die "vika.desktop's Exec is not 'vika %F'"
  grep -qE '^application/x-vika-course=(.*;)?vika\.desktop(;|$)' "$chroot_dir/usr/share/applications/mimeinfo.cache" ||
    die "mimeinfo.cache does not map application/x-vika-course to vika.desktop"
  grep -qE '^application/vnd\.openxmlformats-officedocument\.presentationml\.presentation=(.*;)?vika\.desktop(;|$)' \
    "$chroot_dir/usr/share/applications/mimeinfo.cache" || die "mimeinfo.cache does not offer vika.desktop for pptx files"
  say "ok: .vika files are application/x-vika-course (glob and magic), opened by vika.desktop (MIME and desktop databases)"
}

# check_json and headless_checks: the checks shared with the Windows test.
source "$repo/packaging/scripts/headless-checks.sh"

run_app() {
  local out=$work/out
  mkdir -p "$out"
  in_root useradd --create-home --uid 4242 --user-group tester
  local home=$chroot_dir/home/tester
  (cd "$repo" && go run ./packaging/scripts/package-pdf "$home/sample.pdf" "$home/cours.pdf" &&
    go run ./packaging/scripts/package-pdf --formats "$home")
  office_files "$home"
  rm -f "$home/deck.fodp"
  chown 4242:4242 "$home"/*
  local home_before
  home_before=$(cd "$chroot_dir/home/tester" && find . | sort)

  as_user vika version >"$out/version" 2>&1 || die "vika version: $(cat "$out/version")"
  sed 's/^/  /' "$out/version" >&2
  grep -q '^vika ' "$out/version" || die "vika version does not print the version"
  local k
  for k in onnxruntime use-lite-model use-lite-vocab; do
    grep -qE "^$k +[^ ]+@[^ ]+ +/usr/lib/vika/" "$out/version" ||
      die "vika version: $k not found intact under /usr/lib/vika"
  done
  say "ok: vika version (assets under /usr/lib/vika, sha256 verified)"

  headless_checks "$out" as_user vika
  format_checks "$out" "$home" as_user vika
  if [[ $suite == bookworm ]]; then
    install_office
    office_checks "$out" as_user vika
  fi

  local home_after
  home_after=$(cd "$chroot_dir/home/tester" && find . | sort)
  [[ $home_after == "$home_before" ]] ||
    die "the headless commands wrote into the home directory: $(diff <(echo "$home_before") <(echo "$home_after"))"
  local changed
  changed=$(in_root dpkg --verify vika) || die "dpkg --verify vika failed: $changed"
  [[ -z $changed ]] || die "dpkg --verify vika: installed files changed: $changed"
  say "ok: nothing written into the user's home; dpkg --verify vika clean"
}

main() {
  local debs=("$repo"/build/package/vika_*_amd64.deb)
  [[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || die "want exactly one build/package/vika_*_amd64.deb: run make package"
  deb=${debs[0]}
  mirror=${VIKA_DEBIAN_MIRROR:-$(mirror_for "$suite")}
  mirror=${mirror:-http://deb.debian.org/debian}
  security=${VIKA_DEBIAN_SECURITY_MIRROR:-$(mirror_for "$suite-security")}
  security=${security:-http://deb.debian.org/debian-security}
  work=$(mktemp -d "${TMPDIR:-/var/tmp}/vika-package-test.XXXXXX")
  say "testing $(basename "$deb") ($(du -m "$deb" | cut -f1) MB) on $release ($suite) from $mirror"
  make_base
  prepare_root
  install_deb
  check_file_types
  run_app
  say "all checks passed in $((SECONDS - start)) s; removing the chroot"
}

main "$@"
