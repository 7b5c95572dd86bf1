package assets

import "vika/backend/config"

// Status describes one asset for `vika version`.
type Status struct {
	Kind   Kind
	Source string // where the pinned file comes from (npm package@version), or "VIKA_ORT_LIB"
	Path   string // the intact copy in use; "" when Err is set
	Err    error  // why no intact copy was found (wraps ErrMissing, ErrCorrupt or ErrUnsupported)
}

// Report verifies every asset (see Verify) and says which copy is used.
func Report() []Status {
	out := make([]Status, 0, len(Kinds))
	for _, k := range Kinds {
		s := Status{Kind: k}
		if e, err := Lookup(k); err == nil {
			s.Source = e.NPM
		}
		if k == ORT && config.ORTLib.Get(nil) != "" {
			s.Source = "VIKA_ORT_LIB"
		}
		s.Path, s.Err = Verify(k)
		out = append(out, s)
	}
	return out
}
