#!/usr/bin/env bash
# Build Vika's Debian package: build/package/vika_<version>_amd64.deb.
#
# Run by `make package` after the binary is built (build/bin/vika, stripped,
# version stamped) and the assets are installed (scripts/setup/assets.sh). Stages:
#   build/package/stage/vika                       the binary (checked: stripped, version)
#   build/package/stage/lib/...                    ONNX Runtime, USE-lite and the models of the
#                                                  box (manifest entries with ship true),
#                                                  copied from the data dir and checked against
#                                                  the sha256 pinned in backend/assets/manifest.json
#   build/package/stage/icons/NxN/apps/vika.png    resized from build/appicon.png (ImageMagick)
# checks the desktop entry (desktop-file-validate) and the AppStream metainfo
# (appstreamcli), checks that packaging/nfpm.yaml's Depends cover every package
# dpkg-shlibdeps finds for the binary and the library, then runs `go tool nfpm`
# (v2.45.2, pinned in go.mod).
#
# VERSION (from make: git describe) becomes the Debian version: a leading "v" is
# dropped, "-" becomes "+", and a version that is not a release number (an
# untagged commit: 9ba8f92-dirty) gets a "0~git" prefix, so it sorts before any
# release: 0~git9ba8f92+dirty.
set -euo pipefail
shopt -s inherit_errexit
umask 022

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=build/package
stage=$out/stage
bin=build/bin/vika
manifest=backend/assets/manifest.json
icon_sizes=(16 24 32 48 64 128 256 512)

say() { printf 'package: %s\n' "$*" >&2; }
die() { printf 'package: error: %s\n' "$*" >&2; exit 1; }

deb_version() {
  local v=${1#v}
  v=${v//-/+}
  [[ $v =~ ^[0-9]+\.[0-9] ]] || v=0~git$v # a release tag (v1.2.0) or a bare commit
  [[ $v =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "cannot make a Debian version of '$1'"
  printf '%s\n' "$v"
}

check_binary() {
  [[ -x $bin ]] || die "$bin not found: run make package (it builds it)"
  local sections first
  sections=$(readelf -S --wide "$bin")
  if grep -qE '\.(symtab|debug_info) ' <<<"$sections"; then
    die "$bin is not stripped (build it with -ldflags \"-s -w\")"
  fi
  first=$("$bin" version)
  first=${first%%$'\n'*}
  [[ $first == "vika $VERSION" ]] || die "$bin says '$first', want 'vika $VERSION'"
  install -m 0755 "$bin" "$stage/vika"
}

# stage_assets: copy each pinned asset of this platform from the data dir into
# the stage, checking its sha256 against the manifest.
stage_assets() {
  local kind path sum n=0 models=0
  while IFS=$'\t' read -r kind path sum; do
    local src
    src=$(asset_source "$path")
    [[ -f $src ]] || die "$kind not found at $src: run make assets"
    [[ $(sha256sum -- "$src" | cut -d' ' -f1) == "$sum" ]] ||
      die "$src does not have the pinned sha256 $sum: delete it and run make assets"
    install -D -m 0644 -- "$src" "$stage/lib/$path"
    [[ $(sha256sum -- "$stage/lib/$path" | cut -d' ' -f1) == "$sum" ]] || die "copy of $src changed"
    say "asset ok  $path ($kind, sha256 ${sum:0:12}...)"
    if [[ $kind == box-model ]]; then models=$((models + 1)); else n=$((n + 1)); fi
  done < <(python3 - "$manifest" <<'PY'
import json, sys
for a in json.load(open(sys.argv[1], encoding="utf-8"))["assets"]:
    if a["platform"] in ("any", "linux-x64") and (a["kind"] != "box-model" or a.get("ship")):
        print("\t".join([a["kind"], a["path"], a["sha256"]]))
PY
  )
  [[ $n -eq 3 ]] || die "expected 3 runtime assets for linux-x64 in $manifest, found $n"
  say "the box: $models model files"
}

# asset_source PATH: where scripts/setup/assets.sh installed PATH (same rules as its data_dir).
asset_source() {
  local dir
  if [[ -n ${VIKA_DATA_DIR:-} ]]; then
    dir=$VIKA_DATA_DIR
  elif [[ ${XDG_DATA_HOME:-} == /* ]]; then
    dir=$XDG_DATA_HOME/vika
  else
    dir=$HOME/.local/share/vika
  fi
  printf '%s/%s\n' "$dir" "$1"
}

stage_icons() {
  command -v convert >/dev/null || die "ImageMagick's convert is missing: apt-get install imagemagick"
  local s dest
  for s in "${icon_sizes[@]}"; do
    dest=$stage/icons/${s}x${s}/apps/vika.png
    mkdir -p "$(dirname "$dest")"
    convert build/appicon.png -resize "${s}x${s}" -strip -depth 8 "PNG32:$dest"
    [[ $(identify -format '%wx%h' "$dest") == "${s}x${s}" ]] || die "icon $dest is not ${s}x${s}"
    chmod 0644 "$dest"
  done
  say "icons     ${icon_sizes[*]} px from build/appicon.png"
}

check_metadata() {
  desktop-file-validate packaging/vika.desktop || die "packaging/vika.desktop is not valid"
  # The .vika course file type: a database update-mime-database accepts (into a scratch folder).
  local mimecheck
  mimecheck=$(mktemp -d)
  mkdir -p "$mimecheck/packages" && cp packaging/vika-mime.xml "$mimecheck/packages/vika.xml"
  update-mime-database "$mimecheck" >&2 && grep -qF 'application/x-vika-course:*.vika' "$mimecheck/globs2" ||
    { rm -rf "$mimecheck"; die "packaging/vika-mime.xml is not a valid shared-mime-info package"; }
  rm -rf "$mimecheck"
  # The id is "vika" (as the desktop file and the binary): the project has no domain of its
  # own for a reverse-DNS id, so that one hint is lowered to info; anything else fails.
  appstreamcli validate --no-net --override=cid-desktopapp-is-not-rdns=info packaging/vika.metainfo.xml >&2 ||
    die "packaging/vika.metainfo.xml is not valid"
}

# check_depends: every package dpkg-shlibdeps derives from the ELF files' NEEDED
# entries must be in nfpm.yaml's depends.
check_depends() {
  local tmp shlibs declared missing=() p
  tmp=$(mktemp -d)
  mkdir -p "$tmp/debian"
  printf 'Source: vika\n\nPackage: vika\nArchitecture: amd64\n' >"$tmp/debian/control"
  cp "$stage/vika" "$stage/lib/onnxruntime/libonnxruntime.so.1" "$tmp/"
  shlibs=$(cd "$tmp" && dpkg-shlibdeps -O --warnings=0 vika libonnxruntime.so.1 2>/dev/null) ||
    { rm -rf "$tmp"; die "dpkg-shlibdeps failed (apt-get install dpkg-dev)"; }
  rm -rf "$tmp"
  shlibs=${shlibs#shlibs:Depends=}
  declared=$(sed -n '/^depends:/,/^[a-z]/s/^  - \([^ ]*\).*/\1/p' packaging/nfpm.yaml)
  for p in $(tr ',' '\n' <<<"$shlibs" | sed 's/^ *\([^ ]*\).*/\1/'); do
    grep -qxF "$p" <<<"$declared" || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] ||
    die "packaging/nfpm.yaml lacks Depends on ${missing[*]} (dpkg-shlibdeps: $shlibs)"
  say "depends   cover dpkg-shlibdeps: $shlibs"
}

main() {
  : "${VERSION:?set VERSION (make package does)}"
  export VIKA_DEB_VERSION
  VIKA_DEB_VERSION=$(deb_version "$VERSION")
  rm -rf "$stage"
  mkdir -p "$stage"
  rm -f "$out"/vika_*.deb
  check_binary
  stage_assets
  stage_icons
  check_metadata
  check_depends
  local deb=$out/vika_${VIKA_DEB_VERSION}_amd64.deb
  go tool nfpm package --config packaging/nfpm.yaml --packager deb --target "$deb" >&2
  local installed
  installed=$(dpkg-deb -f "$deb" Installed-Size)
  say "built $deb: $(du -m "$deb" | cut -f1) MB, installed size $((installed / 1024)) MB"
  dpkg-deb --contents "$deb" | awk '{print "  " $1, $3, $6}' >&2
}

main "$@"
