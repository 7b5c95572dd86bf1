// Package mathml finds the LaTeX formulas of an answer's Markdown and
// renders them as MathML for the HTML export, with Temml, the library the
// window renders them with: temml.min.js (the npm package pinned in
// frontend/package.json, copied here) run by the goja JavaScript
// interpreter. Temml runs without trust (no \href, \class, \style,
// \includegraphics), so a formula cannot carry a link or a resource.
package mathml

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

//go:embed temml.min.js
var temmlJS string

// ErrFormula is a formula that does not parse.
var ErrFormula = errors.New("formula does not parse")

// budget bounds one formula's rendering: Temml's macro expansion is
// bounded (maxExpand), this catches anything else.
const budget = 2 * time.Second

// engine is the one interpreter with Temml loaded (goja runtimes are not
// safe for concurrent use).
type engine struct {
	mu     sync.Mutex // guards vm and render
	vm     *goja.Runtime
	render goja.Callable
	err    error // why Temml could not be loaded
}

var (
	shared engine
	once   sync.Once
)

func (e *engine) load() {
	e.vm = goja.New()
	if _, err := e.vm.RunString(temmlJS); err != nil {
		e.err = fmt.Errorf("cannot load Temml: %w", err)
		return
	}
	temml := e.vm.Get("temml")
	if temml == nil {
		e.err = errors.New("cannot load Temml: no temml object")
		return
	}
	render, ok := goja.AssertFunction(temml.ToObject(e.vm).Get("renderToString"))
	if !ok {
		e.err = errors.New("cannot load Temml: no renderToString")
		return
	}
	e.render = render
}

// Render returns the MathML of a formula, with its LaTeX as an
// annotation, on display (a block) or inline; an error wrapping
// ErrFormula when it does not parse.
func Render(tex string, display bool) (string, error) {
	once.Do(shared.load)
	if shared.err != nil {
		return "", shared.err
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	vm := shared.vm
	opts := vm.NewObject()
	for k, v := range map[string]any{"displayMode": display, "annotate": true, "throwOnError": true, "trust": false, "strict": false, "maxExpand": 500} {
		_ = opts.Set(k, v)
	}
	fired := make(chan struct{})
	timer := time.AfterFunc(budget, func() {
		vm.Interrupt("formula took too long")
		close(fired)
	})
	defer func() {
		if !timer.Stop() {
			<-fired // an interrupt on its way lands before it is cleared, not on the next formula
		}
		vm.ClearInterrupt()
	}()
	v, err := shared.render(goja.Undefined(), vm.ToValue(tex), opts)
	if err != nil {
		msg := err.Error()
		if i := strings.Index(msg, " at <eval>"); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("%w: %s", ErrFormula, strings.TrimSpace(msg))
	}
	return v.String(), nil
}
