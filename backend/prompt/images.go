package prompt

import (
	"fmt"
	"strings"

	"vika/backend/corpus"
	"vika/backend/llm"
)

// Picture is the crop of a table or figure that goes with a question to a
// vision-capable model: the region's image and the source it belongs to.
type Picture struct {
	Source int        // the source's number in the prompt (1-based)
	Hit    corpus.Hit // that source
	Kind   corpus.ChunkKind
	// Caption is the region's caption ("Figure 3: ..."), "" when none.
	Caption string
	MIME    string // "image/png" or "image/jpeg"
	Data    []byte
}

// picturesNote tells the model what the images are and how to cite them.
const picturesNote = "Images of some sources follow the question, each labelled with its source's number and citation. " +
	"They show the figures and tables as printed: read them as part of that source, and cite what you take from an image with its source's label."

// WithPictures returns req with pics attached to its last message (the
// question), each labelled by its source, and a note saying how to use
// them. req is returned unchanged when pics is empty.
func WithPictures(req llm.Request, pics []Picture) llm.Request {
	if len(pics) == 0 || len(req.Messages) == 0 {
		return req
	}
	msgs := append([]llm.Message(nil), req.Messages...)
	last := &msgs[len(msgs)-1]
	last.Content = strings.TrimRight(last.Content, "\n") + "\n\n" + picturesNote + "\n"
	last.Images = make([]llm.Image, len(pics))
	for i, p := range pics {
		last.Images[i] = llm.Image{MIME: p.MIME, Data: p.Data, Label: PictureLabel(p)}
	}
	req.Messages = msgs
	return req
}

// PictureLabel is the text sent before a picture:
// `Image of source 2 [resnet.pdf p.6] (figure: "Figure 3: ...")`.
func PictureLabel(p Picture) string {
	what := string(p.Kind)
	if c := strings.TrimSpace(p.Caption); c != "" {
		what += fmt.Sprintf(": %q", truncate(c, 160))
	}
	return fmt.Sprintf("Image of source %d %s (%s)", p.Source, Label(p.Hit), what)
}
