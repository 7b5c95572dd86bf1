#!/usr/bin/env bash
# Cross-compiles Leptonica and Tesseract for windows/amd64 with mingw-w64 from
# Debian's own source packages, as static libraries with no image libraries
# (Vika hands Tesseract raw gray pixels; Leptonica still reads PNM and BMP).
# The result is cached under ${XDG_CACHE_HOME:-~/.cache}/vika/windows/<key>,
# keyed by the source versions, the compiler version and this script, so a
# second run prints the path at once. Prints the prefix (include/, lib/) on
# stdout; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."

LEPT_VERSION=1.82.0-3
TESS_VERSION=5.3.0-2
CC=x86_64-w64-mingw32-gcc-posix
CXX=x86_64-w64-mingw32-g++-posix
JOBS=${JOBS:-2}

log() { echo "windows-libs: $*" >&2; }

packaging/scripts/windows-deps.sh >&2

gccver=$($CC -dumpfullversion)
scripthash=$(sha256sum "$0" | cut -c1-12)
key="leptonica-$LEPT_VERSION-tesseract-$TESS_VERSION-gcc-$gccver-$scripthash"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/vika/windows
prefix=$cache/$key
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi

# The sources and the object files stay in a build dir (removed once the libraries are
# installed), so a build that fails or is interrupted resumes where it stopped.
work=$cache/build-leptonica-$LEPT_VERSION-tesseract-$TESS_VERSION-gcc-$gccver
mkdir -p "$work"
rm -rf "$prefix"
mkdir -p "$prefix/lib"
# Tesseract's CMake links "Ws2_32"; mingw-w64's import library is libws2_32.a, and Linux
# file names are case-sensitive.
ln -sf /usr/x86_64-w64-mingw32/lib/libws2_32.a "$prefix/lib/libWs2_32.a"

if [[ ! -d $work/leptonlib-1.82.0 || ! -d $work/tesseract-5.3.0 ]]; then
  log "fetching Debian sources leptonlib $LEPT_VERSION and tesseract $TESS_VERSION"
  (cd "$work" && apt-get source -qq "leptonlib=$LEPT_VERSION" "tesseract=$TESS_VERSION" >/dev/null 2>&1) || {
    log "apt-get source failed (is the deb-src entry in /etc/apt/sources.list.d/vika-src.sources?)"
    exit 1
  }
fi

cat > "$work/toolchain.cmake" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $CC)
set(CMAKE_CXX_COMPILER $CXX)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 $prefix)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF

common=(
  -DCMAKE_TOOLCHAIN_FILE="$work/toolchain.cmake"
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_INSTALL_PREFIX="$prefix"
  -DBUILD_SHARED_LIBS=OFF
  -DCMAKE_EXE_LINKER_FLAGS="-L$prefix/lib"
  -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON
  -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON
)

start=$(date +%s)
log "building Leptonica (static, no image libraries)"
cmake -S "$work/leptonlib-1.82.0" -B "$work/lept-build" "${common[@]}" \
  -DSW_BUILD=OFF -DBUILD_PROG=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_GIF=ON -DCMAKE_DISABLE_FIND_PACKAGE_JPEG=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON >"$work/lept.log" 2>&1 ||
  { tail -30 "$work/lept.log" >&2; exit 1; }
make -C "$work/lept-build" -j"$JOBS" install >>"$work/lept.log" 2>&1 || { tail -30 "$work/lept.log" >&2; exit 1; }

log "building Tesseract (static, no training tools, archives, curl or graphics)"
# -march=native would tie the library to this machine's CPU: Tesseract picks
# its AVX/SSE kernels at run time instead.
cmake -S "$work/tesseract-5.3.0" -B "$work/tess-build" "${common[@]}" \
  -DSW_BUILD=OFF -DLeptonica_DIR="$prefix/lib/cmake/leptonica" \
  -DBUILD_TRAINING_TOOLS=OFF -DBUILD_TESTS=OFF -DGRAPHICS_DISABLED=ON \
  -DDISABLE_ARCHIVE=ON -DDISABLE_CURL=ON -DOPENMP_BUILD=OFF -DENABLE_OPENCL=OFF \
  -DCOMPILER_SUPPORTS_MARCH_NATIVE=OFF -DINSTALL_CONFIGS=OFF >"$work/tess.log" 2>&1 ||
  { tail -30 "$work/tess.log" >&2; exit 1; }
make -C "$work/tess-build" -j"$JOBS" install >>"$work/tess.log" 2>&1 || { tail -30 "$work/tess.log" >&2; exit 1; }

log "built in $(( $(date +%s) - start )) s into $prefix"
rm -rf "$work"
touch "$prefix/.complete"
echo "$prefix"
