package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"vika/backend/config"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/sandbox"
)

// Office converts Office files to PDF with LibreOffice (soffice
// --headless --convert-to pdf), one file at a time, each run in a
// temporary directory with a private profile that disables macros and
// the links to outside files, without the network where the system
// allows (sandbox.Program), under time, memory and CPU limits, its whole
// process group killed past them.
type Office struct {
	// Path is soffice (FindOffice).
	Path string
	// Timeout bounds one conversion; MemoryBytes and CPUTime its
	// address space and CPU time (zero: the defaults).
	Timeout     time.Duration
	MemoryBytes int64
	CPUTime     time.Duration

	turn chan struct{} // one LibreOffice at a time (made by the first ToPDF)
	once sync.Once
	// withNetwork runs LibreOffice without its network namespace: tests
	// check that the profile alone keeps it off the network.
	withNetwork bool
}

// Defaults of Office's limits: a 100-slide deck takes about 5 s here.
const (
	DefaultOfficeTimeout = 120 * time.Second
	DefaultOfficeMemory  = 3 << 30
	DefaultOfficeCPU     = 240 * time.Second
)

// FindOffice returns the soffice to use: setting (config.Soffice: a path,
// or "off"), else soffice on PATH, else the usual install places
// (/usr/bin, /opt/libreoffice*, %ProgramFiles%\LibreOffice); "" when there
// is none. getenv reads the Windows install roots.
func FindOffice(setting string, getenv func(string) string) string {
	switch strings.ToLower(setting) {
	case "off", "none", "0":
		return ""
	case "":
	default:
		if isFile(setting) {
			return setting
		}
		return ""
	}
	name := "soffice"
	if runtime.GOOS == "windows" {
		name = "soffice.exe"
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	var places []string
	if runtime.GOOS == "windows" {
		for _, root := range []string{getenv("ProgramFiles"), getenv("ProgramFiles(x86)"), getenv("ProgramW6432")} {
			if root != "" {
				places = append(places, filepath.Join(root, "LibreOffice", "program", name))
			}
		}
	} else {
		places = append(places, "/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice")
		opt, _ := filepath.Glob("/opt/libreoffice*/program/soffice")
		places = append(places, opt...)
	}
	for _, p := range places {
		if isFile(p) {
			return p
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// profile is the registrymodifications.xcu of each run's private
// profile: macros never run (the highest security level, and their
// execution turned off), no update or first-start dialog, links to other
// files and remote images never updated or loaded.
const profile = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Impress/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Load"><prop oor:name="ShowOfficeUpdateDialog" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="LoadReadonly" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`

// ToPDF converts data, a file of format f, to PDF. The PDF is checked
// against lim (its size, header and page count are the pipeline's to
// check again).
func (o *Office) ToPDF(ctx context.Context, data []byte, f Format, lim pdf.Limits) ([]byte, error) {
	o.once.Do(func() { o.turn = make(chan struct{}, 1) })
	select { // a cancelled add stops waiting for its turn
	case o.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-o.turn }()
	dir, err := os.MkdirTemp("", "vika-office-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	user := filepath.Join(dir, "profile", "user")
	if err := os.MkdirAll(user, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(profile), 0o600); err != nil {
		return nil, err
	}
	// The input's own name never reaches LibreOffice: in.<format>.
	in := filepath.Join(dir, "in."+f.ID)
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "out")
	p := sandbox.Program{
		Argv: []string{o.Path, "--headless", "--invisible", "--nologo", "--norestore", "--nolockcheck", "--nodefault",
			"-env:UserInstallation=" + fileURL(filepath.Join(dir, "profile")),
			"--convert-to", pdfFilter(f), "--outdir", out, in},
		Dir:         dir,
		Env:         officeEnv(dir),
		Timeout:     or(o.Timeout, DefaultOfficeTimeout),
		MemoryBytes: or(o.MemoryBytes, DefaultOfficeMemory),
		CPUTime:     or(o.CPUTime, DefaultOfficeCPU),
		NoNetwork:   !o.withNetwork,
	}
	printed, err := p.Run(ctx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, o.failed(f, err, lastLine(printed))
	}
	pdfPath := filepath.Join(out, "in.pdf")
	fi, err := os.Stat(pdfPath)
	if err != nil {
		return nil, o.failed(f, errors.New("it wrote no PDF"), lastLine(printed))
	}
	if err := pdf.CheckSize(fi.Size(), lim); err != nil {
		return nil, err
	}
	file, err := os.Open(pdfPath)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var r io.Reader = file
	if lim.MaxBytes > 0 {
		r = io.LimitReader(file, lim.MaxBytes+1) // the file may grow after its size was checked
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := pdf.Check(b, lim); err != nil {
		return nil, o.failed(f, err, "")
	}
	return b, nil
}

// failed is LibreOffice's failure on a file of format f: its cause (a
// timeout, an exit status, a PDF that does not check) and the last line
// it printed.
// pdfFilter is the --convert-to argument for a file of format f: a slide
// deck's PDF without bookmarks (Impress names them "Slide 1", "Slide 2",
// ..., an outline that says nothing and would become sections to study);
// a document's with its headings as bookmarks.
func pdfFilter(f Format) string {
	if f.Unit == UnitSlide {
		return `pdf:impress_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"false"}}`
	}
	return "pdf"
}

func (o *Office) failed(f Format, cause error, printed string) error {
	detail := cause.Error()
	if printed = strings.TrimSpace(printed); printed != "" && !strings.Contains(printed, "javaldx") {
		detail += " (" + printed + ")"
	}
	return message.Wrap(fmt.Errorf("%w (%s): %w", ErrOffice, f.ID, cause), message.OfficeFailed, "format", f.ID, "detail", detail)
}

// officeEnv is LibreOffice's whole environment: a home of its own in the
// run's directory, no display, no proxy, no key; on Windows the system's
// own folders, which its runtime looks up.
func officeEnv(dir string) []string {
	if runtime.GOOS == "windows" {
		env := []string{"TEMP=" + dir, "TMP=" + dir, "USERPROFILE=" + dir, "APPDATA=" + dir, "LOCALAPPDATA=" + dir}
		for _, name := range []string{"SystemRoot", "windir", "SystemDrive", "PATH"} {
			env = append(env, name+"="+config.Getenv(name))
		}
		return env
	}
	return []string{"HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8", "SAL_USE_VCLPLUGIN=svp", "PATH=/usr/bin:/bin"}
}

func fileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + p
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
