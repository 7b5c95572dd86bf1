#!/usr/bin/env bash
# Prepare a go.mod for the package build in which lingua-go embeds only the
# language models Vika uses, and print its path (use it as GOFLAGS=-modfile=...).
#
# lingua-go embeds the models of all 75 of its languages (128 MB in the
# binary) with one //go:embed directive; Vika builds its detector for the
# seven languages of backend/langid (16.7 MB of models). This copies the
# lingua-go module, unchanged but for the model folders of the other
# languages, into build/package/lingua-go, and writes build/package/go.mod:
# the project's go.mod plus a replace directive pointing at that copy.
# Nothing in the repository changes; `make build` and the tests use the whole
# module.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=build/package
die() { printf 'lingua-trim: error: %s\n' "$*" >&2; exit 1; }

# The languages: backend/langid's `var languages = []string{"en", "fr", ...}`.
langs=$(sed -n 's/^var languages = \[\]string{\(.*\)}$/\1/p' backend/langid/langid.go | tr -d '"' | tr ',' '\n' | xargs)
[[ -n ${langs// /} ]] || die "cannot read the languages from backend/langid/langid.go"

src=$(go list -m -f '{{.Dir}}' github.com/pemistahl/lingua-go)
[[ -d $src/language-models ]] || die "lingua-go's language models not found in $src"
dest=$out/lingua-go
rm -rf "$dest"
mkdir -p "$out"
cp -r "$src" "$dest"
chmod -R u+w "$dest"
for dir in "$dest"/language-models/*/; do
  lang=$(basename "$dir")
  [[ " $langs " == *" $lang "* ]] || rm -rf "$dir"
done
for lang in $langs; do
  [[ -d $dest/language-models/$lang ]] || die "lingua-go has no models for '$lang'"
done

cp go.mod "$out/go.mod"
cp go.sum "$out/go.sum"
printf '\nreplace github.com/pemistahl/lingua-go => %s\n' "$root/$dest" >>"$out/go.mod"
printf 'lingua-trim: lingua-go models kept for %s (%s)\n' "${langs}" "$(du -sh "$dest/language-models" | cut -f1)" >&2
printf '%s\n' "$root/$out/go.mod"
