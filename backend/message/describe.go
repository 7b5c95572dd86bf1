package message

// Describe codes: why describing a document's figures, tables and
// formulas (Settings, Figures and tables) could not start or stopped.
// What was described before a failure is kept.
const (
	DescribeNoModel   = "describe.no_model"   // no describing model is chosen in Settings
	DescribeNotVision = "describe.not_vision" // model: the chosen model reads no images
	DescribeFailed    = "describe.failed"     // model, reason: the failure kind (Reasons)
)

func init() {
	english[DescribeNoModel] = fixed("No model is chosen to describe figures: pick one in Settings.")
	english[DescribeNotVision] = func(p Params) string {
		return str(p, "model") + " cannot describe figures: it reads no images. Pick a vision model in Settings."
	}
	english[DescribeFailed] = func(p Params) string {
		return str(p, "model") + " could not describe this document (" + reason(str(p, "reason")) +
			"); what was described is kept. Try again later, or pick another model in Settings."
	}
}
