package onnx

import (
	"fmt"
	"math"

	ort "github.com/yalue/onnxruntime_go"
)

// BERTBatch is the padded model input of some token sequences.
type BERTBatch struct {
	rows     [][]int64
	typeRows [][]int64
	pad      int64
	seq      int
}

// NewBERTBatch starts a batch for up to n rows, padded with pad.
func NewBERTBatch(n int, pad int64) *BERTBatch {
	return &BERTBatch{rows: make([][]int64, 0, n), typeRows: make([][]int64, 0, n), pad: pad}
}

// Add appends a row of ids and their token type ids (nil: all 0).
func (b *BERTBatch) Add(ids, types []int64) {
	b.rows = append(b.rows, ids)
	b.typeRows = append(b.typeRows, types)
	b.seq = max(b.seq, len(ids))
}

// Rows is the number of rows; Seq the padded length.
func (b *BERTBatch) Rows() int { return len(b.rows) }

// Seq is the padded sequence length (the longest row).
func (b *BERTBatch) Seq() int { return b.seq }

// Tensors builds input_ids, attention_mask and, when withTypes, token_type_ids
// [rows, seq] int64; free destroys them.
func (b *BERTBatch) Tensors(withTypes bool) (vals []ort.Value, free func(), err error) {
	n := len(b.rows) * b.seq
	ids, mask, types := make([]int64, n), make([]int64, n), make([]int64, n)
	for r, row := range b.rows {
		for p := range b.seq {
			i := r*b.seq + p
			if p >= len(row) {
				ids[i] = b.pad
				continue
			}
			ids[i], mask[i] = row[p], 1
			if t := b.typeRows[r]; t != nil {
				types[i] = t[p]
			}
		}
	}
	data := [][]int64{ids, mask}
	if withTypes {
		data = append(data, types)
	}
	free = func() {
		for _, v := range vals {
			v.Destroy()
		}
	}
	shape := ort.NewShape(int64(len(b.rows)), int64(b.seq))
	for _, d := range data {
		t, err := ort.NewTensor(shape, d)
		if err != nil {
			free()
			return nil, nil, err
		}
		vals = append(vals, t)
	}
	return vals, free, nil
}

// MeanPool averages row r of states [rows, seq, dim] over its attended
// (non-padding) positions, scales the mean to unit length and writes it to
// dst. A non-finite or zero mean is an error.
func (b *BERTBatch) MeanPool(states []float32, r, dim int, dst []float32) error {
	return b.pool(states, r, dim, len(b.rows[r]), dst)
}

// CLSPool writes the state of row r's first token ([CLS]), scaled to unit
// length, to dst (bge models pool so). A non-finite or zero state is an
// error.
func (b *BERTBatch) CLSPool(states []float32, r, dim int, dst []float32) error {
	return b.pool(states, r, dim, 1, dst)
}

// pool averages the first n positions of row r and scales to unit length.
func (b *BERTBatch) pool(states []float32, r, dim, n int, dst []float32) error {
	sum := make([]float64, dim)
	base := r * b.seq * dim
	for p := range n {
		for k, x := range states[base+p*dim : base+(p+1)*dim] {
			sum[k] += float64(x)
		}
	}
	var sq float64
	for k := range sum {
		sum[k] /= float64(n)
		sq += sum[k] * sum[k]
	}
	norm := math.Sqrt(sq)
	if math.IsNaN(norm) || math.IsInf(norm, 0) || norm == 0 {
		return fmt.Errorf("pooled vector has norm %v", norm)
	}
	for k := range sum {
		dst[k] = float32(sum[k] / norm)
	}
	return nil
}
