package kept

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
)

// A vector is written as its float32s, little-endian, in base64: 5.3
// bytes a number where JSON's decimal numbers take about 11 (a course
// file's or the cache's vectors half the size, and read about ten times
// faster). An array of numbers, as course files were saved before, is
// read too.
type vector []float32

func (v vector) MarshalJSON() ([]byte, error) {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return json.Marshal(b)
}

func (v *vector) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '[' {
		var f []float32
		err := json.Unmarshal(data, &f)
		*v = f
		return err
	}
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return err
	}
	if len(b)%4 != 0 {
		return errors.New("a kept vector is not a whole number of float32s")
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	*v = out
	return nil
}

// vectorsWire is Vectors as written.
type vectorsWire struct {
	Vecs       []vector
	FigChunks  []string
	FigVectors []vector
}

func wire(vs [][]float32) []vector {
	if vs == nil {
		return nil
	}
	out := make([]vector, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func unwire(vs []vector) [][]float32 {
	if vs == nil {
		return nil
	}
	out := make([][]float32, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// MarshalJSON writes v's vectors packed (vector).
func (v Vectors) MarshalJSON() ([]byte, error) {
	return json.Marshal(vectorsWire{Vecs: wire(v.Vecs), FigChunks: v.FigChunks, FigVectors: wire(v.FigVectors)})
}

// UnmarshalJSON reads vectors packed or as arrays of numbers.
func (v *Vectors) UnmarshalJSON(data []byte) error {
	var w vectorsWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*v = Vectors{Vecs: unwire(w.Vecs), FigChunks: w.FigChunks, FigVectors: unwire(w.FigVectors)}
	return nil
}
