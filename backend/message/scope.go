package message

// Scope codes: why the scope of a question could not be applied.
const (
	ScopeUnknownSection   = "scope.unknown_section"   // section: no document searched has it in its outline
	ScopeSectionAmbiguous = "scope.section_ambiguous" // section, docs: several documents have it
	ScopeSectionOutside   = "scope.section_outside"   // section, from, to: its pages lie outside the page range
)

func init() {
	english[ScopeUnknownSection] = func(p Params) string {
		return "No document searched has a section titled \"" + str(p, "section") + "\" in its outline."
	}
	english[ScopeSectionAmbiguous] = func(p Params) string {
		return "Several documents have a section titled \"" + str(p, "section") + "\" (" + str(p, "docs") + "): tick only the one you mean."
	}
	english[ScopeSectionOutside] = func(p Params) string {
		return "The section \"" + str(p, "section") + "\" (pages " + str(p, "from") + " to " + str(p, "to") + ") lies outside the pages searched."
	}
}
