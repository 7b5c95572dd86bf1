package embed

import (
	"testing"

	ort "github.com/yalue/onnxruntime_go"
)

// RequireOptions is requireOptions for the external tests.
var RequireOptions = requireOptions

// BareORT returns a function that feeds texts to e's session as Embed
// would (tokenized, cut at 128 tokens, batchSize texts a call), with the
// tokens and tensors made once: what is left is ONNX Runtime's own cost.
func BareORT(tb testing.TB, e *USELite, texts []string, batchSize int) func() {
	tb.Helper()
	type call struct{ in, out []ort.Value }
	var calls []call
	for start := 0; start < len(texts); start += batchSize {
		var bt batch
		for i, s := range texts[start:min(start+batchSize, len(texts))] {
			ids := e.tok.Encode(s)
			bt.add(i, ids[:min(len(ids), USELiteMaxTokens)])
		}
		n := int64(len(bt.values))
		indices, err := ort.NewTensor(ort.NewShape(n, 2), bt.indices)
		if err != nil {
			tb.Fatal(err)
		}
		values, err := ort.NewTensor(ort.NewShape(n), bt.values)
		if err != nil {
			tb.Fatal(err)
		}
		out, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(len(bt.rows)), USELiteDim))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { indices.Destroy(); values.Destroy(); out.Destroy() })
		calls = append(calls, call{[]ort.Value{indices, values}, []ort.Value{out}})
	}
	return func() {
		sess, done, ok := e.sess.Acquire()
		if !ok {
			tb.Fatal("session closed")
		}
		defer done()
		for _, c := range calls {
			if err := sess.Run(c.in, c.out); err != nil {
				tb.Fatal(err)
			}
		}
	}
}
