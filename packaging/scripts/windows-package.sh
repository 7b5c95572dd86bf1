#!/usr/bin/env bash
# Build Vika's Windows installer on Linux: build/package/Vika-Setup-<version>-x64.exe.
#
#  1. Leptonica and Tesseract cross-compiled with mingw-w64 (packaging/scripts/windows-libs.sh,
#     cached under ${XDG_CACHE_HOME:-~/.cache}/vika/windows).
#  2. vika.exe: the Wails production build for windows/amd64 (`go build -tags
#     desktop,production`, as `wails build` runs it, because wails cannot build with the
#     lingua-trimmed -modfile), cgo through mingw-w64 (posix threads, for Tesseract's
#     std::thread), linked statically (no libstdc++/winpthread DLLs to ship) with the icon
#     and manifest of packaging/windows/vika.rc; a GUI program (-H windowsgui) that attaches
#     to its parent console for the headless commands (console_windows.go).
#  3. The install folder staged in build/package/windows/stage: vika.exe, vika.ico and
#     every win-x64 asset of backend/assets/manifest.json at its manifest path, each checked
#     against its pinned sha256: onnxruntime.dll (npm onnxruntime-node, cached), the USE-lite
#     model (the data dir, from `make assets`), tessdata eng+fra (Debian's tesseract-ocr-eng
#     and -fra); the WebView2 bootstrapper (from the Wails Go module) goes into the
#     installer only.
#  4. makensis packaging/windows/vika.nsi.
#
# Run by `make package-windows` (after `make frontend assets`); VERSION comes from make.
set -euo pipefail
shopt -s inherit_errexit
umask 022

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=build/package
win=$out/windows
stage=$win/stage
manifest=backend/assets/manifest.json
cache=${XDG_CACHE_HOME:-$HOME/.cache}/vika/windows
VERSION=${VERSION:?VERSION is set by make}

say() { printf 'package-windows: %s\n' "$*" >&2; }
die() { printf 'package-windows: error: %s\n' "$*" >&2; exit 1; }
sha() { sha256sum -- "$1" | cut -d' ' -f1; }
start=$SECONDS

[[ -f frontend/dist/index.html ]] || die "frontend/dist is not built: run make frontend"
prefix=$(packaging/scripts/windows-libs.sh)
say "Leptonica + Tesseract for Windows: $prefix ($((SECONDS - start)) s)"

rm -rf "$win"
mkdir -p "$stage"

# The icon, and the resource object linked into vika.exe.
convert build/appicon.png -define icon:auto-resize=256,128,64,48,32,16 "$stage/vika.ico"
cp packaging/windows/vika.rc packaging/windows/vika.exe.manifest "$win/"
cp "$stage/vika.ico" "$win/"
x86_64-w64-mingw32-windres -i "$win/vika.rc" -O coff -o "$win/rsrc.o"

# gosseract links -lleptonica -ltesseract, in that order: for static archives the
# dependency (Leptonica) must come after its user, so Leptonica follows once more.
# CMake names them libleptonica-1.82.0.a and libtesseract53.a; gosseract asks for the
# unversioned names.
lept=$(cd "$prefix/lib" && ls libleptonica-[0-9]*.a | head -n 1)
tess=$(cd "$prefix/lib" && ls libtesseract[0-9]*.a | head -n 1)
ln -sfn "$lept" "$prefix/lib/libleptonica.a"
ln -sfn "$tess" "$prefix/lib/libtesseract.a"

# go-fitz's libmupdf*_windows_amd64.a were built with a newer mingw-w64 than Debian 12's:
# their setjmp calls __intrinsic_setjmpex (msvcrt's _setjmpex under another name) and their
# _FORTIFY_SOURCE checks call __memcpy_chk and friends (GCC's libssp).
extld="-static $root/$win/rsrc.o -Wl,--defsym,__intrinsic_setjmpex=_setjmpex -lssp"

t=$SECONDS
modfile=$(packaging/scripts/lingua-trim.sh)
say "building vika.exe (windows/amd64, cgo via mingw-w64)"
GOFLAGS=-modfile=$modfile GOOS=windows GOARCH=amd64 CGO_ENABLED=1 \
  CC=x86_64-w64-mingw32-gcc-posix CXX=x86_64-w64-mingw32-g++-posix \
  CGO_CPPFLAGS="-I$prefix/include" \
  CGO_LDFLAGS="-L$prefix/lib -ltesseract -lleptonica" \
  go build -buildvcs=false -trimpath -tags desktop,production \
  -ldflags "-s -w -H windowsgui -X vika/backend/cli.Version=$VERSION -extldflags '$extld'" \
  -o "$stage/vika.exe" .
say "vika.exe: $(du -m "$stage/vika.exe" | cut -f1) MB in $((SECONDS - t)) s"
# Nothing but Windows' own DLLs may be imported (ONNX Runtime is loaded at run time).
imports=$(x86_64-w64-mingw32-objdump -p "$stage/vika.exe" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
for dll in $imports; do
  case $dll in
    kernel32.dll | user32.dll | gdi32.dll | advapi32.dll | shell32.dll | ole32.dll | oleaut32.dll | \
      comdlg32.dll | comctl32.dll | ws2_32.dll | winmm.dll | shlwapi.dll | uxtheme.dll | dwmapi.dll | \
      version.dll | crypt32.dll | bcrypt.dll | secur32.dll | msvcrt.dll | ntdll.dll | userenv.dll | \
      api-ms-win-*.dll | powrprof.dll | iphlpapi.dll | winspool.drv | imm32.dll | setupapi.dll | \
      dbghelp.dll | psapi.dll | mswsock.dll | netapi32.dll | credui.dll | rpcrt4.dll | wininet.dll | \
      winhttp.dll | opengl32.dll | synchronization.dll | shcore.dll) ;;
    *) die "vika.exe imports $dll, which Windows does not provide" ;;
  esac
done

# asset_source KIND PATH: the file to install for a manifest entry.
asset_source() {
  local kind=$1 path=$2
  case $kind in
    onnxruntime) ort_dll ;;
    use-lite-* | box-model) printf '%s\n' "$(data_dir)/$path" ;;
    tessdata-*) printf '/usr/share/tesseract-ocr/5/tessdata/%s\n' "$(basename "$path")" ;;
    webview2-bootstrapper)
      printf '%s/internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe\n' \
        "$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)" ;;
    *) die "no source known for $kind" ;;
  esac
}

data_dir() {
  if [[ -n ${VIKA_DATA_DIR:-} ]]; then echo "$VIKA_DATA_DIR"
  elif [[ ${XDG_DATA_HOME:-} == /* ]]; then echo "$XDG_DATA_HOME/vika"
  else echo "$HOME/.local/share/vika"; fi
}

# ort_dll: onnxruntime.dll from the pinned npm package, fetched once into the cache.
ort_dll() {
  local spec member dll tmp
  read -r spec member < <(python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["assets"]:
    if a["kind"] == "onnxruntime" and a["platform"] == "win-x64":
        print(a["npm"], a["member"])' "$manifest")
  dll=$cache/$(printf '%s' "$spec" | tr -c 'A-Za-z0-9._-' '_')/onnxruntime.dll
  if [[ ! -f $dll ]]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "$spec" >pack.out 2>pack.err) || die "npm pack $spec failed: $(cat "$tmp/pack.err")"
    tar -xzf "$tmp/$(tail -n 1 "$tmp/pack.out")" -C "$tmp" "$member" || die "$member not in $spec"
    mkdir -p "$(dirname "$dll")"
    mv "$tmp/$member" "$dll"
    rm -rf "$tmp"
  fi
  printf '%s\n' "$dll"
}

n=0
while IFS=$'\t' read -r kind path sum; do
  src=$(asset_source "$kind" "$path")
  [[ -f $src ]] || die "$kind not found at $src (make assets installs the model; apt tesseract-ocr-eng/-fra the data)"
  [[ $(sha "$src") == "$sum" ]] || die "$src does not have the sha256 pinned in $manifest ($sum)"
  if [[ $kind == webview2-bootstrapper ]]; then
    install -m 0644 -- "$src" "$win/MicrosoftEdgeWebview2Setup.exe"
  else
    install -D -m 0644 -- "$src" "$stage/$path"
  fi
  say "asset ok  $path ($kind, sha256 ${sum:0:12}...)"
  n=$((n + 1))
done < <(python3 - "$manifest" <<'PY'
import json, sys
for a in json.load(open(sys.argv[1], encoding="utf-8"))["assets"]:
    if a["platform"] in ("any", "win-x64") and (a["kind"] != "box-model" or a.get("ship")):
        print("\t".join([a["kind"], a["path"], a["sha256"]]))
PY
)
models=$(python3 -c 'import json, sys
print(sum(1 for a in json.load(open(sys.argv[1], encoding="utf-8"))["assets"] if a["kind"] == "box-model" and a.get("ship")))' "$manifest")
[[ $n -eq $((6 + models)) ]] || die "expected $((6 + models)) win-x64 assets in $manifest (6 and $models model files of the box), found $n"

setup=$out/Vika-Setup-$VERSION-x64.exe
rm -f -- "$out"/Vika-Setup-*-x64.exe # the previous versions: the test takes the only one
t=$SECONDS
makensis -V2 -DVERSION="$VERSION" -DSTAGE="$root/$stage" -DOUTFILE="$root/$setup" \
  -DBOOTSTRAPPER="$root/$win/MicrosoftEdgeWebview2Setup.exe" packaging/windows/vika.nsi >&2
say "$(basename "$setup"): $(du -m "$setup" | cut -f1) MB (installed: $(du -sm "$stage" | cut -f1) MB) ; makensis $((SECONDS - t)) s, all $((SECONDS - start)) s"
