package llm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testPNG encodes a small picture (a diagonal gradient with a dark bar, so
// that every byte of the file matters) as PNG.
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 48, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 48; x++ {
			c := color.RGBA{uint8(x * 5), uint8(y * 7), uint8(x + y), 255}
			if y > 12 && y < 18 && x > 4 && x < 40 {
				c = color.RGBA{10, 10, 80, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// visionRequest is a question with two crops attached to its last message.
func visionRequest(t *testing.T) (Request, []byte, []byte) {
	fig := testPNG(t)
	table := append([]byte{}, fig...)
	table[len(table)-5] ^= 0xff // a different file, still distinct bytes on the wire
	req := testRequest
	req.Messages = append([]Message{}, testRequest.Messages...)
	last := &req.Messages[len(req.Messages)-1]
	last.Images = []Image{
		{MIME: "image/png", Data: fig, Label: "Figure source [2] [resnet.pdf p.6]"},
		{MIME: "image/jpeg", Data: table, Label: "Table source [5] [resnet.pdf p.7]"},
	}
	return req, fig, table
}

func mustB64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("not base64: %v (%.40q)", err, s)
	}
	return b
}

func TestGeminiSendsInlineImages(t *testing.T) {
	f, p := geminiFake(t, reply{Chunks: sse("\r\n\r\n", geminiChunk1, geminiChunk2)})
	req, fig, table := visionRequest(t)
	if got := collect(t, p, req, 0); got.err != nil {
		t.Fatal(got.err)
	}
	var body struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text       string `json:"text"`
				InlineData *struct {
					MIMEType string `json:"mimeType"`
					Data     string `json:"data"`
				} `json:"inlineData"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal([]byte(f.Last().Body), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Contents) != 3 {
		t.Fatalf("%d contents", len(body.Contents))
	}
	for _, c := range body.Contents[:2] {
		if len(c.Parts) != 1 || c.Parts[0].InlineData != nil {
			t.Errorf("an earlier turn carries images: %+v", c)
		}
	}
	parts := body.Contents[2].Parts
	if len(parts) != 5 {
		t.Fatalf("last message has %d parts, want text, label, image, label, image", len(parts))
	}
	if parts[0].Text != "Is it in P?" || parts[1].Text != "Figure source [2] [resnet.pdf p.6]" || parts[3].Text != "Table source [5] [resnet.pdf p.7]" {
		t.Errorf("text parts out of order: %q %q %q", parts[0].Text, parts[1].Text, parts[3].Text)
	}
	for i, want := range []struct {
		mime string
		data []byte
	}{{"image/png", fig}, {"image/jpeg", table}} {
		in := parts[2+2*i].InlineData
		if in == nil {
			t.Fatalf("part %d is not inline data", 2+2*i)
		}
		if in.MIMEType != want.mime || !bytes.Equal(mustB64(t, in.Data), want.data) {
			t.Errorf("image %d: mime %q, %d bytes back, want %q and %d bytes", i, in.MIMEType, len(mustB64(t, in.Data)), want.mime, len(want.data))
		}
	}
	if _, err := png.Decode(bytes.NewReader(mustB64(t, parts[2].InlineData.Data))); err != nil {
		t.Errorf("the figure received is not a PNG: %v", err)
	}
}

func TestOpenAICompatSendsImageURLs(t *testing.T) {
	for _, provider := range []string{"mistral", "groq", "openrouter"} {
		t.Run(provider, func(t *testing.T) {
			f, p := openAIFake(t, provider, reply{Chunks: mistralStream})
			req, fig, table := visionRequest(t)
			if got := collect(t, p, req, 0); got.err != nil {
				t.Fatal(got.err)
			}
			var body struct {
				Messages []struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal([]byte(f.Last().Body), &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Messages) != 4 {
				t.Fatalf("%d messages", len(body.Messages))
			}
			for _, m := range body.Messages[:3] { // system, user, assistant: plain strings
				var s string
				if json.Unmarshal(m.Content, &s) != nil {
					t.Errorf("%s message is not a plain string: %s", m.Role, m.Content)
				}
			}
			var parts []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ImageURL *struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			if err := json.Unmarshal(body.Messages[3].Content, &parts); err != nil {
				t.Fatalf("the question is not a content array: %s", body.Messages[3].Content)
			}
			var types []string
			for _, pt := range parts {
				types = append(types, pt.Type)
			}
			if diff := cmp.Diff([]string{"text", "text", "image_url", "text", "image_url"}, types); diff != "" {
				t.Fatalf("part types (-want +got):\n%s", diff)
			}
			if parts[0].Text != "Is it in P?" || parts[1].Text != "Figure source [2] [resnet.pdf p.6]" || parts[3].Text != "Table source [5] [resnet.pdf p.7]" {
				t.Errorf("texts: %q %q %q", parts[0].Text, parts[1].Text, parts[3].Text)
			}
			for i, want := range []struct {
				prefix string
				data   []byte
			}{{"data:image/png;base64,", fig}, {"data:image/jpeg;base64,", table}} {
				url := parts[2+2*i].ImageURL.URL
				if !strings.HasPrefix(url, want.prefix) {
					t.Fatalf("image %d url starts %.30q, want %q", i, url, want.prefix)
				}
				if !bytes.Equal(mustB64(t, strings.TrimPrefix(url, want.prefix)), want.data) {
					t.Errorf("image %d: bytes differ after the base64 round trip", i)
				}
			}
		})
	}
}

func TestOllamaSendsImages(t *testing.T) {
	f, p := ollamaFake(t, reply{Chunks: ollamaStream})
	req, fig, table := visionRequest(t)
	if got := collect(t, p, req, 0); got.err != nil {
		t.Fatal(got.err)
	}
	var body struct {
		Messages []struct {
			Role    string   `json:"role"`
			Content string   `json:"content"`
			Images  []string `json:"images"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(f.Last().Body), &body); err != nil {
		t.Fatal(err)
	}
	last := body.Messages[len(body.Messages)-1]
	if len(last.Images) != 2 {
		t.Fatalf("%d images", len(last.Images))
	}
	if !bytes.Equal(mustB64(t, last.Images[0]), fig) || !bytes.Equal(mustB64(t, last.Images[1]), table) {
		t.Error("image bytes differ after the base64 round trip, or are out of order")
	}
	want := "Is it in P?\n\nImage 1: Figure source [2] [resnet.pdf p.6]\n\nImage 2: Table source [5] [resnet.pdf p.7]"
	if last.Content != want {
		t.Errorf("content = %q, want %q", last.Content, want)
	}
	for _, m := range body.Messages[:len(body.Messages)-1] {
		if m.Images != nil {
			t.Errorf("%s message carries images", m.Role)
		}
	}
}

// TestOllamaVision: a pulled model reads images when /api/show lists the
// vision capability; an Ollama too old to list capabilities is read by
// family (clip, mllama...); a failing /api/show falls back on /api/tags.
func TestOllamaVision(t *testing.T) {
	const tags = `{"models":[
 {"name":"llava:7b","model":"llava:7b","details":{"family":"llama","families":["llama","clip"],"parameter_size":"7B"}},
 {"name":"gemma3:4b","model":"gemma3:4b","details":{"family":"gemma3","families":["gemma3"],"parameter_size":"4.3B"}},
 {"name":"llama3.2:latest","model":"llama3.2:latest","details":{"family":"llama","families":["llama"],"parameter_size":"3.2B"}},
 {"name":"qwen2.5vl:7b","model":"qwen2.5vl:7b","details":{"family":"qwen25vl","families":["qwen25vl"],"parameter_size":"8.3B"}}]}`
	shows := map[string]reply{
		// A current Ollama: capabilities decide, whatever the family says.
		`{"model":"gemma3:4b"}`:       {Body: `{"details":{"family":"gemma3"},"capabilities":["completion"]}`},
		`{"model":"llama3.2:latest"}`: {Body: `{"details":{"family":"llama"},"capabilities":["completion","tools"]}`},
		`{"model":"qwen2.5vl:7b"}`:    {Body: `{"details":{"family":"qwen25vl"},"capabilities":["completion","vision"]}`},
		// An old Ollama: no capabilities, the projector family tells.
		`{"model":"llava:7b"}`: {Body: `{"details":{"family":"llama","families":["llama","clip"]}}`},
	}
	var showBodies []string
	f := newFakeServer(t, "application/json", func(r recorded) reply {
		switch r.Path {
		case "/api/tags":
			return reply{Body: tags}
		case "/api/show":
			showBodies = append(showBodies, r.Body)
			if rep, ok := shows[r.Body]; ok {
				return rep
			}
		}
		return reply{Status: 404, Body: `{"error":"not found"}`}
	})
	o := &ollama{name: "ollama", baseURL: f.URL, http: NewHTTPClient(2 * time.Second)}
	got, err := o.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	vision := map[string]bool{}
	for _, m := range got {
		vision[m.Name] = m.Vision
	}
	want := map[string]bool{"llava:7b": true, "gemma3:4b": false, "llama3.2:latest": false, "qwen2.5vl:7b": true}
	if diff := cmp.Diff(want, vision); diff != "" {
		t.Errorf("vision (-want +got):\n%s", diff)
	}
	if len(showBodies) != 4 {
		t.Errorf("/api/show asked %d times: %q", len(showBodies), showBodies)
	}

	// /api/show missing (404 for every model): the families of /api/tags.
	shows = map[string]reply{}
	got, err = o.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	vision = map[string]bool{}
	for _, m := range got {
		vision[m.Name] = m.Vision
	}
	want = map[string]bool{"llava:7b": true, "gemma3:4b": true, "llama3.2:latest": false, "qwen2.5vl:7b": true}
	if diff := cmp.Diff(want, vision); diff != "" {
		t.Errorf("vision by family (-want +got):\n%s", diff)
	}
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if m := cat.localModel("ollama", got[0]); !m.Vision || !m.Local {
		t.Errorf("local model %+v lost its vision", m)
	}
}

// TestCatalogueVision: the vision models are marked, the
// text-only ones are not.
func TestCatalogueVision(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range cat.Models {
		if m.Vision {
			got[m.Key()] = true
		}
	}
	want := map[string]bool{
		"gemini/gemini-2.5-pro": true, "gemini/gemini-2.5-flash": true, "gemini/gemini-2.5-flash-lite": true,
		"mistral/mistral-small-2603": true, "mistral/ministral-8b-2512": true, "mistral/pixtral-12b-latest": true,
		"openrouter/meta-llama/llama-4-maverick": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vision models (-want +got):\n%s", diff)
	}
}

// TestPlanPrefersVision: a question that needs images puts the
// vision-capable models first, in their usual order, the others after as
// fallbacks; a manual choice stays first; preferring local keeps local
// models first.
func TestPlanPrefersVision(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	llava := cat.localModel("ollama", ollamaModel{Name: "llava:7b", ParamsB: 7, Vision: true})
	llama := cat.localModel("ollama", ollamaModel{Name: "llama3.2:latest", ParamsB: 3.2})
	var models []ModelStatus
	for _, m := range append(cat.Models, llama, llava) {
		reason := ""
		if m.Provider == "mistral" || m.Provider == "openrouter" {
			reason = "no API key"
		}
		models = append(models, status(m, reason))
	}
	tests := []struct {
		name        string
		q           Query
		preferLocal bool
		want        []string
	}{
		{"simple", Query{Question: "What does figure 3 show?", Vision: true}, false, []string{
			"gemini/gemini-2.5-flash-lite", "gemini/gemini-2.5-flash", "gemini/gemini-2.5-pro", "ollama/llava:7b",
			"groq/llama-3.1-8b-instant", "groq/llama-3.3-70b-versatile", "ollama/llama3.2:latest"}},
		{"manual text-only choice stays first", Query{Question: "What does figure 3 show?", Vision: true, Model: "groq/llama-3.1-8b-instant"}, false, []string{
			"groq/llama-3.1-8b-instant", "gemini/gemini-2.5-flash-lite", "gemini/gemini-2.5-flash", "gemini/gemini-2.5-pro", "ollama/llava:7b",
			"groq/llama-3.3-70b-versatile", "ollama/llama3.2:latest"}},
		{"prefer local", Query{Question: "What does figure 3 show?", Vision: true}, true, []string{
			"ollama/llava:7b", "ollama/llama3.2:latest", "gemini/gemini-2.5-flash-lite", "gemini/gemini-2.5-flash", "gemini/gemini-2.5-pro",
			"groq/llama-3.1-8b-instant", "groq/llama-3.3-70b-versatile"}},
		{"no images: the usual order", Query{Question: "What does figure 3 show?"}, false, []string{
			"gemini/gemini-2.5-flash-lite", "groq/llama-3.1-8b-instant", "gemini/gemini-2.5-flash",
			"groq/llama-3.3-70b-versatile", "gemini/gemini-2.5-pro", "ollama/llama3.2:latest", "ollama/llava:7b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Router{Threshold: DefaultThreshold, PreferLocal: tt.preferLocal}
			p, err := r.Plan(tt.q, models)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, keys(p.Order)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
