package export

import "strings"

// isSafeURL is the window's rule (frontend/src/lib/markdown.ts): only
// absolute http(s) URLs stay links.
func isSafeURL(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	for _, p := range []string{"http://", "https://"} {
		if strings.HasPrefix(u, p) && len(u) > len(p) && !strings.ContainsAny(u[len(p):len(p)+1], " \t") {
			return true
		}
	}
	return false
}
