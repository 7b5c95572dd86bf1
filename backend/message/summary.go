package message

// Summary codes: why summarising a document's passages (Settings,
// Summary index) could not start or stopped. What was summarised before
// a failure is kept.
const (
	SummaryNoModel = "summary.no_model" // no text model is available (no key, no local Ollama)
	SummaryFailed  = "summary.failed"   // reason: the failure kind (Reasons) of the last model tried
)

func init() {
	english[SummaryNoModel] = fixed("Summarising passages needs a language model: add an API key in Settings, or turn on a local Ollama there.")
	english[SummaryFailed] = func(p Params) string {
		return "No model could summarise this document's passages (" + reason(str(p, "reason")) +
			"); what was summarised is kept. Try again later."
	}
}
