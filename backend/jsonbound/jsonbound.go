// Package jsonbound reads untrusted JSON (a course file's data) within
// bounds counted as it goes, before anything is decoded: a few bytes of
// JSON can stand for a large Go value ("{}," is three bytes and a whole
// struct), so a bound on the bytes alone does not bound the memory.
package jsonbound

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrBounds is returned, wrapped with what was over, when JSON exceeds its
// Limits.
var ErrBounds = errors.New("JSON over its bounds")

// Limits bound a JSON text: its values (every object, array, string,
// number, literal), its containers (objects and arrays: the values that
// cost the most once decoded, a struct or a slice each), the elements of
// any one array, and its nesting.
type Limits struct {
	MaxValues     int
	MaxContainers int
	MaxArray      int
	MaxDepth      int
}

// Check scans data once, without decoding it, and fails with ErrBounds
// as soon as it passes lim. It does not check that data is valid JSON
// (json.Unmarshal does, after it).
func Check(data []byte, lim Limits) error {
	values, containers, depth := 0, 0, 0
	// elems[d] counts the elements of the array open at depth d (0 for
	// an object, whose members count as values).
	elems := make([]int, 0, 16)
	isArray := make([]bool, 0, 16)
	inString, escaped, pendingValue := false, false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case '{', '[':
			depth++
			if depth > lim.MaxDepth {
				return fmt.Errorf("%w: nested deeper than %d", ErrBounds, lim.MaxDepth)
			}
			if err := count(&values, elems, isArray, lim); err != nil {
				return err
			}
			if containers++; containers > lim.MaxContainers {
				return fmt.Errorf("%w: more than %d objects and arrays", ErrBounds, lim.MaxContainers)
			}
			elems, isArray = append(elems, 0), append(isArray, c == '[')
			pendingValue = false
			continue
		case '}', ']':
			if depth == 0 {
				return nil // invalid; json.Unmarshal says so
			}
			depth--
			elems, isArray = elems[:len(elems)-1], isArray[:len(isArray)-1]
			pendingValue = false
			continue
		case ',':
			pendingValue = false
			continue
		case '"':
			inString = true
		}
		// The first byte of a string, number or literal starts a value;
		// its other bytes do not.
		if !pendingValue {
			if err := count(&values, elems, isArray, lim); err != nil {
				return err
			}
			pendingValue = c != '"'
		}
	}
	return nil
}

// count adds a value, and an element to the array it is in.
func count(values *int, elems []int, isArray []bool, lim Limits) error {
	if *values++; *values > lim.MaxValues {
		return fmt.Errorf("%w: more than %d values", ErrBounds, lim.MaxValues)
	}
	if n := len(elems); n > 0 && isArray[n-1] {
		if elems[n-1]++; elems[n-1] > lim.MaxArray {
			return fmt.Errorf("%w: an array of more than %d elements", ErrBounds, lim.MaxArray)
		}
	}
	return nil
}

// Unmarshal checks data against lim, then decodes it into v.
func Unmarshal(data []byte, v any, lim Limits) error {
	if err := Check(data, lim); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// Array reads data, a JSON array, one element at a time: each gets every
// element's text (at most maxElem bytes) in order; more than maxCount
// elements, or a larger one, fail with ErrBounds as soon as they are met.
func Array(data []byte, maxCount, maxElem int, each func(json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("not a JSON array: %v", errOr(err, tok))
	}
	for n := 0; dec.More(); n++ {
		if n >= maxCount {
			return fmt.Errorf("%w: more than %d elements", ErrBounds, maxCount)
		}
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if dec.InputOffset()-start > int64(maxElem) {
			return fmt.Errorf("%w: an element of more than %d bytes", ErrBounds, maxElem)
		}
		if err := each(raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func errOr(err error, tok json.Token) any {
	if err != nil {
		return err
	}
	return tok
}
