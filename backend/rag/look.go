package rag

import (
	"bytes"
	"context"

	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// Pictures gives the crops of the session's tables and figures
// (*engine.Engine implements it). An Engine without it answers from text
// only.
type Pictures interface {
	// RegionOf returns the region a table or figure passage was made
	// from, with its crop; false when it has none.
	RegionOf(ctx context.Context, chunkID string) (corpus.Region, bool)
	// RegionsOn returns the regions of a page that have a crop.
	RegionsOn(ctx context.Context, docID string, page int) []corpus.Region
}

// MaxPictures is the most crops sent with one question; MaxPictureBytes
// the largest crop sent (a larger one is left out).
const (
	MaxPictures     = 4
	MaxPictureBytes = 4 << 20
)

// picturesFor chooses the crops that go with a question: first those of
// the tables and figures the question names (corpus.NamedLabels: "figure
// 3", "Table II", "the first figure") when they are on a source's page,
// then those of the sources that are tables or figures, in the sources'
// order; at most MaxPictures, each once.
func picturesFor(ctx context.Context, pics Pictures, question string, srcs []Source) []prompt.Picture {
	if pics == nil {
		return nil
	}
	var out []prompt.Picture
	add := func(s Source, r corpus.Region) {
		if len(out) >= MaxPictures || len(r.Image) == 0 || len(r.Image) > MaxPictureBytes {
			return
		}
		for _, p := range out {
			if bytes.Equal(p.Data, r.Image) {
				return
			}
		}
		out = append(out, prompt.Picture{Source: s.Index, Hit: s.Hit, Kind: r.Kind, Caption: r.Caption,
			MIME: mimeOf(r.Image), Data: r.Image})
	}
	for _, want := range corpus.NamedLabels(question) {
		for _, s := range srcs {
			for _, r := range pics.RegionsOn(ctx, s.DocID, s.Page) {
				if (corpus.Label{Kind: r.Kind, Number: corpus.CaptionNumber(r.Caption)}) == want {
					add(s, r)
				}
			}
		}
	}
	for _, s := range srcs {
		if s.Kind != corpus.ChunkFigure && s.Kind != corpus.ChunkTable {
			continue
		}
		if r, ok := pics.RegionOf(ctx, s.ChunkID); ok {
			add(s, r)
		}
	}
	return out
}

// mimeOf names an image's type from its first bytes (crops are PNG; a
// JPEG is named as such).
func mimeOf(b []byte) string {
	if bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}) {
		return "image/jpeg"
	}
	return "image/png"
}

// withheldNotice tells the student that the model that answered reads no
// images, so it was given the text of the tables and figures only.
func withheldNotice(m llm.Model, n int) llm.Notice {
	return llm.Notice{Kind: NoticeNoImages, Model: m.Key(),
		Message: m.Name + " reads no images: it answered from the text of the tables and figures, without seeing them.",
		Code:    message.NoticeImagesWithheld, Params: message.Params{"model": m.Name, "count": n}}
}

// NoticeNoImages is the kind of the notice sent when crops were meant for
// the model but it reads no images.
const NoticeNoImages = "no_images"
