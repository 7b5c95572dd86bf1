# Vika: `make run` and `make test` install what is missing, then build/run or test.
# `make help` lists the targets.

SHELL := /bin/bash
TAGS := webkit2_41
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X vika/backend/cli.Version=$(VERSION)
BIN := build/bin/vika
export CGO_ENABLED := 1

.PHONY: help deps assets bindings frontend build run test test-go test-keyring test-frontend test-e2e screenshots package test-package package-windows test-windows clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

deps: ## install missing Debian packages, Go modules and npm packages
	@scripts/deps.sh

assets: ## fetch and verify the runtime assets (ONNX Runtime, default embedding model)
	@scripts/assets.sh

bindings: deps ## generate the frontend's Wails bindings (frontend/wailsjs)
	@mkdir -p frontend/dist && touch frontend/dist/.gitkeep
	go tool wails generate module -tags $(TAGS)

frontend: bindings ## build the frontend into frontend/dist
	cd frontend && npm run build

build: frontend assets ## build the desktop app into build/bin/vika
	go tool wails build -tags $(TAGS) -ldflags "$(LDFLAGS)" -s -m -nosyncgomod

run: build ## install what is missing, build, and open the window
	$(BIN)

test: deps assets frontend test-go test-keyring test-frontend test-e2e ## install what is missing, then run every test
	@echo "make test: all tests passed"

test-go: ## go vet, go test -race on every package, then 20 s of fuzzing the PDF intake
	go vet -tags $(TAGS) ./...
	go vet -tags "tune $(TAGS)" ./backend/... # the measurement sweeps (-tags tune): compiled, not run
	VIKA_REQUIRE_ASSETS=1 go test -race -tags $(TAGS) -timeout 20m ./...
	go test -tags $(TAGS) -run '^$$' -fuzz FuzzOpen -fuzztime 20s ./backend/pdf/

test-keyring: ## real OS-keyring tests (private D-Bus session, unlocked gnome-keyring)
	scripts/with-keyring.sh go test -race -count=1 -tags $(TAGS) ./backend/secrets/

test-frontend: ## svelte-check and Vitest
	cd frontend && npm run check && npm test

test-e2e: deps ## Playwright in Debian's chromium against `wails dev` under Xvfb
	scripts/e2e.sh

screenshots: build ## PNGs of the real window under Xvfb into build/screenshots
	scripts/screenshots.sh

package: frontend assets ## build the Debian package build/package/vika_<version>_amd64.deb
	@# `wails build`'s production compile, with lingua-go trimmed to Vika's languages (saves
	@# about 112 MB; see scripts/lingua-trim.sh). wails itself cannot build with -modfile.
	modfile=$$(scripts/lingua-trim.sh) && GOFLAGS=-modfile=$$modfile \
		go build -buildvcs=false -tags desktop,production,$(TAGS) -ldflags "-s -w $(LDFLAGS)" -o $(BIN) .
	VERSION=$(VERSION) scripts/package.sh

test-package: package ## install the .deb into a fresh Debian 12 chroot (debootstrap) and run it headless there
	scripts/package-test.sh bookworm

package-windows: frontend assets ## cross-build the Windows installer build/package/Vika-Setup-<version>-x64.exe
	@scripts/windows-deps.sh
	VERSION=$(VERSION) scripts/windows-package.sh

test-windows: package-windows ## install the Windows installer into a fresh Wine prefix, run it headless, uninstall it
	scripts/windows-test.sh

clean: ## remove build outputs (not the installed assets)
	rm -rf build/bin build/package frontend/dist frontend/wailsjs
