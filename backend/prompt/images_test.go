package prompt

import (
	"strings"
	"testing"

	"vika/backend/corpus"
)

func TestWithPictures(t *testing.T) {
	hits := []corpus.Hit{
		{File: "resnet.pdf", Page: 4, Text: "Residual learning reformulates layers.", Kind: corpus.ChunkBody},
		{File: "resnet.pdf", Page: 6, Text: "Figure 4. Training on ImageNet.", Kind: corpus.ChunkFigure},
	}
	req := Build(Input{Question: "What does figure 4 show?", Sources: hits, Style: StyleBalanced})
	plain := req.Messages[len(req.Messages)-1].Content
	if got := WithPictures(req, nil); got.Messages[len(got.Messages)-1].Content != plain || got.Messages[len(got.Messages)-1].Images != nil {
		t.Error("no pictures changed the request")
	}
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	got := WithPictures(req, []Picture{{Source: 2, Hit: hits[1], Kind: corpus.ChunkFigure,
		Caption: "Figure 4. Training on ImageNet. Thin curves denote training error.", MIME: "image/png", Data: png}})
	last := got.Messages[len(got.Messages)-1]
	if !strings.HasPrefix(last.Content, strings.TrimRight(plain, "\n")) || !strings.Contains(last.Content, picturesNote) {
		t.Errorf("content = %q", last.Content)
	}
	if len(last.Images) != 1 || string(last.Images[0].Data) != string(png) || last.Images[0].MIME != "image/png" {
		t.Fatalf("images = %+v", last.Images)
	}
	want := `Image of source 2 [resnet.pdf p.6] (figure: "Figure 4. Training on ImageNet. Thin curves denote training error.")`
	if last.Images[0].Label != want {
		t.Errorf("label = %q, want %q", last.Images[0].Label, want)
	}
	if req.Messages[len(req.Messages)-1].Images != nil {
		t.Error("WithPictures changed the request it was given")
	}
}
