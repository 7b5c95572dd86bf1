# Vika: `make run` and `make test` install what is missing, then build/run or test.
# `make help` lists the targets.

SHELL := /bin/bash
TAGS := webkit2_41
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X vika/backend/cli.Version=$(VERSION)
BIN := build/bin/vika
MULTIARCH_LIB := /usr/lib/x86_64-linux-gnu
# What the static Leptonica and Tesseract need at the end of the link (readelf -d of their .so):
# full sonames where Debian 12 has no -dev symlink, and libcurl.so.4 (OpenSSL), not the NSS flavour.
OCR_STATIC_LIBS := $(CURDIR)/build/ocr-static/libleptonica.a \
	$(addprefix $(MULTIARCH_LIB)/,libarchive.so.13 libcurl.so.4 libpng16.so.16 libjpeg.so.62 libgif.so.7 \
	libtiff.so.6 libwebpmux.so.3 libwebp.so.7 libopenjp2.so.7) -fopenmp -lz -lstdc++ -lm
export CGO_ENABLED := 1
# make test requires ../shared/data (scripts/setup/shared-data.sh) unless VIKA_NO_SHARED_DATA=1.
REQUIRE_SHARED := $(if $(filter 1,$(VIKA_NO_SHARED_DATA)),0,1)

.PHONY: help deps assets generate bindings catalogue frontend build run test shared-data test-go fuzz test-overhead test-keyring test-frontend test-e2e test-window screenshots package test-package package-windows test-windows clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

deps: ## install missing Debian packages, Go modules and npm packages
	@scripts/setup/deps.sh

assets: ## fetch and verify the runtime assets (ONNX Runtime, default embedding model)
	@scripts/setup/assets.sh

generate: bindings catalogue ## regenerate the generated files: the Wails bindings, the API catalogue and the message codes

bindings: deps ## generate the frontend's Wails bindings (frontend/wailsjs, not committed)
	@mkdir -p frontend/dist && touch frontend/dist/.gitkeep
	go tool wails generate module -tags $(TAGS)

catalogue: ## rewrite frontend/src/lib/api/catalogue.json and i18n/codes.json from Go (both committed; their tests fail when stale)
	@mkdir -p frontend/dist && touch frontend/dist/.gitkeep
	go test -tags $(TAGS) -count=1 -run '^TestCatalogue' . -update-catalogue
	go test -tags $(TAGS) -count=1 -run '^TestCodesFileIsCurrent$$' ./backend/message -update

frontend: bindings ## build the frontend into frontend/dist
	cd frontend && npm run build

build: frontend assets ## build the desktop app into build/bin/vika
	go tool wails build -tags $(TAGS) -ldflags "$(LDFLAGS)" -s -m -nosyncgomod

run: build ## install what is missing, build, and open the window
	$(BIN)

test: shared-data deps assets frontend test-go test-overhead test-keyring test-frontend test-e2e test-window ## install what is missing, then run every test
	@if [ "$(REQUIRE_SHARED)" = 1 ]; then echo "make test: all tests passed"; \
	else echo "make test: all tests passed, WITHOUT the tests that need ../shared/data (VIKA_NO_SHARED_DATA=1)"; fi

shared-data: ## check ../shared/data holds the files the tests use (VIKA_NO_SHARED_DATA=1: skip those tests)
	@scripts/setup/shared-data.sh

# The packages whose quality tests (SciFact, page hits over ../shared/data, abstention) take
# minutes and skip under -short: they run without the race detector, after the -race pass.
QUALITY_PKGS := ./backend/cli ./backend/eval ./backend/index ./backend/pdf ./backend/prompt ./backend/rag ./backend/retrieve

test-go: ## go vet, go test -race -short on every package, the quality tests without -race, then 400 fuzzed inputs of the PDF intake, 200 of the write-back of highlights and notes, 100 of the ingest path and 5,000 of a course's notes (counted: a time-boxed run fails when its end finds a worker busy)
	go vet -tags $(TAGS) ./...
	go vet -tags "tune $(TAGS)" ./backend/... # the measurement sweeps (-tags tune): compiled, not run
	@missing=$$(grep -rl 'testing.Short()' --include='*_test.go' backend | xargs -n1 dirname | sort -u | sed 's|^|./|' | grep -vxF $(foreach p,$(QUALITY_PKGS),-e $(p))); \
	  if [ -n "$$missing" ]; then echo "test-go: add to QUALITY_PKGS (their long tests skip under -short): $$missing"; exit 1; fi
	VIKA_REQUIRE_ASSETS=1 VIKA_REQUIRE_SHARED_DATA=$(REQUIRE_SHARED) go test -race -short -tags $(TAGS) -timeout 20m ./...
	VIKA_REQUIRE_ASSETS=1 VIKA_REQUIRE_SHARED_DATA=$(REQUIRE_SHARED) go test -tags $(TAGS) -timeout 30m $(QUALITY_PKGS)
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzOpen -fuzztime 400x ./backend/pdf/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzAnnotate -fuzztime 200x ./backend/pdf/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzIngest -fuzztime 100x ./backend/ingest/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzDecode -fuzztime 5000x ./backend/notes/

FUZZTIME ?= 3m
fuzz: ## longer fuzzing of the PDF intake, the write-back, the ingest path and a course's notes (FUZZTIME each, default 3m)
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzOpen -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./backend/pdf/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzAnnotate -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./backend/pdf/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzIngest -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./backend/ingest/
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./backend/notes/

test-overhead: ## the answer path's 5 ms overhead bound, without the race detector (which skips it)
	VIKA_REQUIRE_OVERHEAD_BOUND=1 go test -count=1 -tags $(TAGS) -run '^TestAnswerOverhead$$' -v ./backend/metrics/

test-keyring: ## real OS-keyring tests (private D-Bus session, unlocked gnome-keyring)
	scripts/setup/with-keyring.sh go test -race -count=1 -tags $(TAGS) ./backend/secrets/

test-frontend: ## svelte-check and Vitest
	cd frontend && npm run check && npm test

test-e2e: deps ## Playwright in Debian's chromium against `wails dev` under Xvfb
	scripts/window/e2e.sh

test-window: build ## the built app in its real window under Xvfb, in English and French (scripts/window/window-test.sh)
	scripts/window/window-test.sh

screenshots: build ## PNGs of the real window under Xvfb into build/screenshots
	scripts/window/screenshots.sh

package: frontend assets ## build the Debian package build/package/vika_<version>_amd64.deb
	@# `wails build`'s production compile, with lingua-go trimmed to Vika's languages (saves
	@# about 112 MB; see packaging/scripts/lingua-trim.sh). wails itself cannot build with -modfile.
	@# Leptonica and Tesseract linked statically (Debian 12's .a archives), so the package does not
	@# depend on liblept5/libtesseract5, which Debian 13 lacks: gosseract's -lleptonica -ltesseract
	@# find the archives first in build/ocr-static; their own shared libraries come last.
	mkdir -p build/ocr-static && ln -sf $(MULTIARCH_LIB)/libtesseract.a $(MULTIARCH_LIB)/liblept.a build/ocr-static/ && \
		ln -sf liblept.a build/ocr-static/libleptonica.a
	modfile=$$(packaging/scripts/lingua-trim.sh) && GOFLAGS=-modfile=$$modfile CGO_LDFLAGS="-L$(CURDIR)/build/ocr-static" \
		go build -buildvcs=false -tags desktop,production,$(TAGS) \
		-ldflags "-s -w $(LDFLAGS) -extldflags '$(OCR_STATIC_LIBS)'" -o $(BIN) .
	@! ldd $(BIN) | grep -E 'lib(lept|tesseract)' || { echo "$(BIN) links Leptonica/Tesseract dynamically" >&2; exit 1; }
	VERSION=$(VERSION) packaging/scripts/package.sh

test-package: package ## install the .deb into fresh Debian 12 and 13 chroots (debootstrap) and run it headless there
	packaging/scripts/package-test.sh bookworm
	packaging/scripts/package-test.sh trixie

package-windows: frontend assets ## cross-build the Windows installer build/package/Vika-Setup-<version>-x64.exe
	@packaging/scripts/windows-deps.sh
	VERSION=$(VERSION) packaging/scripts/windows-package.sh

test-windows: package-windows ## install the Windows installer into a fresh Wine prefix, run it headless, uninstall it
	packaging/scripts/windows-test.sh

clean: ## remove build outputs (not the installed assets)
	rm -rf build/bin build/package build/ocr-static frontend/dist frontend/wailsjs
