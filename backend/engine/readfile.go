package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"vika/backend/message"
	"vika/backend/pdf"
)

// readPDF reads the file at path for adding: a regular file only (a FIFO,
// a device or a socket is refused before a read could block), at most
// lim.MaxBytes+1 bytes (the file may grow after its size is checked), and
// within ctx: a read that does not return (a stalled network mount) is
// left to finish on its own, file closed there, while the add ends.
func readPDF(ctx context.Context, path string, lim pdf.Limits) ([]byte, error) {
	name := filepath.Base(path)
	return readWithin(ctx, func() ([]byte, error) {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", name, err)
		}
		if err := checkRegular(fi, name); err != nil {
			return nil, err
		}
		if err := pdf.CheckSize(fi.Size(), lim); err != nil {
			return nil, err
		}
		f, err := openNoBlock(path)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", name, err)
		}
		defer f.Close()
		if fi, err = f.Stat(); err != nil { // what was opened, not what was checked
			return nil, fmt.Errorf("cannot read %s: %w", name, err)
		}
		if err := checkRegular(fi, name); err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(f, lim.MaxBytes+1))
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", name, err)
		}
		return data, nil
	})
}

func checkRegular(fi os.FileInfo, name string) error {
	switch {
	case fi.IsDir():
		return message.Wrap(fmt.Errorf("%w: %s is a folder", pdf.ErrNotPDF, name), message.Folder)
	case !fi.Mode().IsRegular():
		return message.Wrap(fmt.Errorf("%w: %s is not a regular file (%s)", pdf.ErrNotPDF, name, fi.Mode().Type()), message.NotAFile)
	}
	return nil
}

// readWithin runs read and returns its result, or ctx's cause as soon as
// ctx ends (read then finishes in its goroutine; what it returns is
// dropped).
func readWithin(ctx context.Context, read func() ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		data, err := read()
		ch <- result{data, err}
	}()
	select {
	case r := <-ch:
		return r.data, r.err
	case <-ctx.Done():
		return nil, message.Wrap(context.Cause(ctx), message.Cancelled)
	}
}
