package models

import (
	"runtime"

	"golang.org/x/sys/cpu"
)

// CPU features a model variant may require (Variant.RequiresAny).
const (
	FeatureAVX2       = "avx2"       // x86-64 AVX2 (Haswell, 2013, and later)
	FeatureAVX512VNNI = "avx512vnni" // x86-64 AVX-512 VNNI (int8 dot products)
	FeatureARM64      = "arm64"      // 64-bit ARM: NEON is always there
)

// Features is the set of CPU features of a machine, by name.
type Features map[string]bool

// HostFeatures returns the features of the machine Vika runs on, read
// with golang.org/x/sys/cpu.
func HostFeatures() Features {
	return Features{
		FeatureAVX2:       cpu.X86.HasAVX2,
		FeatureAVX512VNNI: cpu.X86.HasAVX512VNNI,
		FeatureARM64:      runtime.GOARCH == "arm64",
	}
}

// Variant is another export of a model's network, usually an 8-bit
// quantized one (about a quarter of the size, faster on CPUs with integer
// dot-product instructions): its ONNX file replaces the model's full
// precision one on a machine with one of the features RequiresAny lists.
type Variant struct {
	Name        string   `json:"name"`
	RequiresAny []string `json:"requires_any"`
	File        File     `json:"file"`
}

// Full is Model.Variant for the full precision export.
const Full = "full"

// ForCPU returns m as installed on a machine with features f: the first of
// its variants whose requirements f meets replaces its .onnx file, else the
// full precision file stays (Variant says which; an entry whose only
// export is quantized, CLIP's, declares its Variant in the registry and
// keeps it). ApproxSizeMB follows the files' pinned sizes (decimal
// megabytes).
func (m Model) ForCPU(f Features) Model {
	if m.Variant == "" || len(m.Variants) > 0 {
		m.Variant = Full
	}
	m.Files = append([]File(nil), m.Files...)
	for _, v := range m.Variants {
		if !f.any(v.RequiresAny) {
			continue
		}
		for i, file := range m.Files {
			if isONNX(file.Path) {
				m.Files[i] = v.File
			}
		}
		m.Variant = v.Name
		break
	}
	var bytes int64
	for _, file := range m.Files {
		bytes += file.Size
	}
	if bytes > 0 {
		m.ApproxSizeMB = int((bytes + 500_000) / 1_000_000) // decimal MB, as the window shows sizes
	}
	return m
}

func (f Features) any(names []string) bool {
	for _, n := range names {
		if f[n] {
			return true
		}
	}
	return false
}
