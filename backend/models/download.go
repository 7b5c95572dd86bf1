package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"vika/backend/assets"
	"vika/backend/message"
)

// Progress reports the transfer of one file. Total is -1 when the server
// does not say; Done counts bytes already on disk (a resumed download starts
// above 0).
type Progress struct {
	Model, File string
	Done, Total int64
}

// Downloader installs registry models. The zero value downloads from
// BaseURL() into Root() with three retries and no progress reports.
type Downloader struct {
	Client  *http.Client // nil: a client with connect and header timeouts
	BaseURL string       // "": BaseURL()
	Root    string       // "": Root()
	// Retries is how many times a broken transfer is resumed; 0 means 3,
	// negative means none.
	Retries int
	// Progress, when set, is called as bytes arrive (at most every
	// ProgressEvery) and once when each file completes.
	Progress      func(Progress)
	ProgressEvery time.Duration // 0: 200ms
	// IdleTimeout fails a transfer during which no byte arrives for this
	// long (a server that stops sending); 0 means DefaultIdleTimeout. The
	// transfer is then resumed like a broken one.
	IdleTimeout time.Duration
}

// DefaultIdleTimeout is Downloader.IdleTimeout when it is 0.
const DefaultIdleTimeout = 30 * time.Second

// Errors of a transfer; test with errors.Is.
var (
	// ErrTooLarge: the server sends more than the file's pinned size
	// (it wraps ErrSize).
	ErrTooLarge = fmt.Errorf("file larger than the registry allows: %w", ErrSize)
	// ErrStalled: the server stopped sending for IdleTimeout.
	ErrStalled = errors.New("download stalled")
)

var defaultClient = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: 15 * time.Second}).DialContext,
	TLSHandshakeTimeout:   15 * time.Second,
	ResponseHeaderTimeout: 30 * time.Second,
}}

// Download installs every file of m that is not already installed intact.
// Every file must be pinned (sha256 and size; ErrUnverified before any
// transfer otherwise): there is no trust on first download. Each file goes
// to <path>.part, resumed with an HTTP Range request when a previous
// attempt was cut, is checked against its pin (another size removes it and
// returns ErrSize, another sha256 ErrChecksum), then renamed into place. Unreachable
// servers give ErrOffline with a message saying USE lite keeps working.
//
// A resumed request carries If-Range with the validator (strong ETag, else
// Last-Modified) of the response that began the file, kept beside it in
// <path>.part.validator: a file changed on the server since is sent whole
// and the download restarts from zero, so two versions are never spliced;
// without a validator there is no resume. A Content-Length other than the
// pinned size is refused before any byte is written (ErrSize, ErrTooLarge
// when larger), a longer body when it passes the size. A server silent for
// IdleTimeout fails the transfer with ErrStalled.
func (d *Downloader) Download(ctx context.Context, m Model) error {
	root := d.Root
	if root == "" {
		root = Root()
	}
	if err := checkPinned(m); err != nil {
		return err
	}
	if m.BoxOnly {
		return message.Wrap(problem(ErrBoxOnly, "%s comes with Vika and cannot be downloaded: reinstall Vika (or run `make assets`) to restore it", m.Name),
			message.ModelBoxOnly, "model", m.Name)
	}
	for _, f := range m.Files {
		if err := d.file(ctx, root, m, f); err != nil {
			return err
		}
	}
	return nil
}

// file installs one file of m.
func (d *Downloader) file(ctx context.Context, root string, m Model, f File) error {
	dest := m.Path(root, f)
	if info, err := os.Stat(dest); err == nil && info.Size() == f.Size {
		if sum, err := assets.FileSHA256(dest, info); err == nil && sum == f.SHA256 {
			d.report(Progress{m.Name, f.Path, info.Size(), info.Size()})
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	base := d.BaseURL
	if base == "" {
		base = BaseURL()
	}
	part := dest + ".part"
	retries := d.Retries
	if retries == 0 {
		retries = 3
	}
	for attempt := 0; ; attempt++ {
		err := d.fetch(ctx, m, f, m.URL(base, f), part)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if isOffline(err) {
			return offline(base)
		}
		var fatal *userError
		if errors.As(err, &fatal) || attempt >= retries {
			return fmt.Errorf("downloading %s of %s: %w", f.Path, m.Name, err)
		}
	}
	sum, size, err := hashPart(part)
	if err != nil {
		return err
	}
	if size != f.Size {
		discard(part)
		return sizeProblem(m, f, m.URL(base, f), size)
	}
	if sum != f.SHA256 {
		discard(part)
		return message.Wrap(problem(ErrChecksum, "%s: %s from %s has sha256 %s, but the registry pins %s: file removed; "+
			"the server holds other bytes than the pinned revision, so nothing was installed",
			m.Name, f.Path, m.URL(base, f), sum, f.SHA256), message.ModelChecksum, "model", m.Name, "file", f.Path)
	}
	if err := os.Rename(part, dest); err != nil {
		return err
	}
	os.Remove(part + validatorExt)
	return nil
}

// sizeProblem is the refusal of f whose server copy has size bytes.
func sizeProblem(m Model, f File, url string, size int64) error {
	kind := ErrSize
	if size > f.Size {
		kind = ErrTooLarge
	}
	return message.Wrap(problem(kind, "%s: %s from %s is %d bytes, but the registry pins %d: refused, nothing was installed",
		m.Name, f.Path, url, size, f.Size), message.ModelSize, "model", m.Name, "file", f.Path, "size", size, "want", f.Size)
}

// checkPinned fails with ErrUnverified unless every file of m has its
// sha256 and size.
func checkPinned(m Model) error {
	for _, f := range m.Files {
		if len(f.SHA256) != 64 || f.Size <= 0 {
			return problem(ErrUnverified, "%s: the registry does not pin %s (sha256 and size), so it cannot be verified: refused", m.Name, f.Path)
		}
	}
	return nil
}

// fetch appends the rest of url to part, resuming from its current size
// when the validator of the response that began it is known.
func (d *Downloader) fetch(ctx context.Context, m Model, f File, url, part string) error {
	limit := m.MaxBytes(f)
	var offset int64
	validator := readValidator(part)
	if info, err := os.Stat(part); err == nil && validator != "" {
		offset = info.Size()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if offset > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
		req.Header.Set("If-Range", validator)
	}
	client := d.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()

	flags := os.O_CREATE | os.O_WRONLY
	total := int64(-1)
	switch {
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		start, size, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || start != offset {
			discard(part) // the server answered another range: start over
			return fmt.Errorf("bad Content-Range %q for offset %d", resp.Header.Get("Content-Range"), offset)
		}
		flags |= os.O_APPEND
		total = size
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC // a new file (If-Range did not match) or no resume support: start over
		offset = 0
		if resp.ContentLength >= 0 {
			total = resp.ContentLength
		}
		if err := writeValidator(part, validatorOf(resp.Header)); err != nil {
			return err
		}
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		discard(part) // larger than the file: start over
		return fmt.Errorf("server refused resuming at byte %d", offset)
	default:
		return problem(ErrHTTP, "%s answered %s", url, resp.Status)
	}
	if total >= 0 && total != limit {
		discard(part)
		return sizeProblem(m, f, url, total)
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return err
	}
	idle := d.IdleTimeout
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	body := newIdleReader(resp.Body, idle, func() { cancel(ErrStalled) })
	defer body.stop()
	w := &progressWriter{d: d, p: Progress{m.Name, f.Path, offset, total}}
	_, err = io.Copy(io.MultiWriter(out, w), io.LimitReader(body, limit-offset+1))
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(context.Cause(ctx), ErrStalled):
		return fmt.Errorf("%w: %s sent nothing for %s", ErrStalled, url, idle)
	case err != nil:
		return err
	case w.p.Done > limit:
		discard(part)
		return sizeProblem(m, f, url, w.p.Done)
	case total >= 0 && w.p.Done != total:
		return fmt.Errorf("transfer ended at byte %d of %d", w.p.Done, total)
	}
	d.report(w.p)
	return nil
}

// contentRange parses "bytes START-END/SIZE" (SIZE may be *: -1).
func contentRange(h string) (start, size int64, ok bool) {
	rest, found := strings.CutPrefix(h, "bytes ")
	if !found {
		return 0, 0, false
	}
	span, sz, found := strings.Cut(rest, "/")
	first, _, found2 := strings.Cut(span, "-")
	if !found || !found2 {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	if sz == "*" {
		return start, -1, true
	}
	size, err = strconv.ParseInt(sz, 10, 64)
	return start, size, err == nil
}

type progressWriter struct {
	d    *Downloader
	p    Progress
	last time.Time
}

func (w *progressWriter) Write(b []byte) (int, error) {
	w.p.Done += int64(len(b))
	every := w.d.ProgressEvery
	if every == 0 {
		every = 200 * time.Millisecond
	}
	if now := time.Now(); now.Sub(w.last) >= every {
		w.last = now
		w.d.report(w.p)
	}
	return len(b), nil
}

func (d *Downloader) report(p Progress) {
	if d.Progress != nil {
		d.Progress(p)
	}
}

func hashPart(path string) (sum string, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	size, err = io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), size, err
}

// isOffline reports whether err means the server cannot be reached at all
// (no DNS, connection refused, no route), as opposed to a broken transfer.
func isOffline(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH)
}

func offline(base string) error {
	host := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		host = u.Host
	}
	return message.Wrap(problem(ErrOffline, "cannot reach %s: you are offline; the default model USE-lite keeps working", host),
		message.ModelOffline, "host", host)
}
