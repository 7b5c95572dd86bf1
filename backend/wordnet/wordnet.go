// Package wordnet reads Princeton WordNet 3.0's database files (as Debian's
// wordnet-base installs them) into a table of related terms keyed by an
// analyzer's term: for each word, the words of its synsets and, as asked,
// of their hypernyms, hyponyms and derivationally related forms.
package wordnet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Relation is how a related term is reached from a word.
type Relation int

// The relations a Table can hold.
const (
	Synonym    Relation = 1 << iota // same synset
	Hypernym                        // a direct hypernym's words
	Hyponym                         // a direct hyponym's words
	Derivation                      // a derivationally related form
)

// Options choose what Load keeps.
type Options struct {
	Relations Relation
	// Senses is how many of a word's senses (most frequent first) are
	// read; <= 0 means all.
	Senses int
	// Collocations keeps multi-word lemmas, each word a term.
	Collocations bool
}

// Related is a term related to a key.
type Related struct {
	Term  string
	Word  string // the related lemma
	From  string // the key's lemma
	Rel   Relation
	Sense int // 1-based sense of the key's word that led to it
}

// Table maps an analyzed term to its related analyzed terms.
type Table map[string][]Related

type synset struct {
	words []string
	ptrs  []pointer
}

type pointer struct {
	sym    string
	offset string
	pos    byte
	src    int // 1-based word in the source synset, 0 for the whole synset
	dst    int
}

var posFiles = map[byte]string{'n': "noun", 'v': "verb", 'a': "adj", 'r': "adv"}

// Load reads the index and data files in dir; analyze turns a word into
// terms (a stemmer and stop list; a word it drops has no entry).
func Load(dir string, analyze func(string) []string, o Options) (Table, error) {
	data := map[byte]map[string]*synset{}
	for pos, name := range posFiles {
		d, err := readData(filepath.Join(dir, "data."+name))
		if err != nil {
			return nil, err
		}
		data[pos] = d
	}
	posOf := func(p byte) byte {
		if p == 's' {
			return 'a'
		}
		return p
	}
	t := Table{}
	seen := map[string]map[string]bool{}
	add := func(key, from string, words []string, rel Relation, sense int) {
		for _, w := range words {
			if strings.Contains(w, "_") && !o.Collocations {
				continue
			}
			for _, term := range analyze(strings.ReplaceAll(w, "_", " ")) {
				if term == key || seen[key][term] {
					continue
				}
				if seen[key] == nil {
					seen[key] = map[string]bool{}
				}
				seen[key][term] = true
				t[key] = append(t[key], Related{Term: term, Word: w, From: from, Rel: rel, Sense: sense})
			}
		}
	}
	for pos, name := range posFiles {
		f, err := os.Open(filepath.Join(dir, "index."+name))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, " ") {
				continue
			}
			fs := strings.Fields(line)
			if len(fs) < 4 || strings.Contains(fs[0], "_") {
				continue
			}
			keys := analyze(fs[0])
			if len(keys) != 1 {
				continue
			}
			key := keys[0]
			nptr, _ := strconv.Atoi(fs[3])
			offs := fs[4+nptr+2:]
			for i, off := range offs {
				if o.Senses > 0 && i >= o.Senses {
					break
				}
				ss := data[pos][off]
				if ss == nil {
					continue
				}
				word := indexOf(ss.words, fs[0])
				if o.Relations&Synonym != 0 {
					add(key, fs[0], ss.words, Synonym, i+1)
				}
				for _, p := range ss.ptrs {
					target := data[posOf(p.pos)][p.offset]
					if target == nil {
						continue
					}
					switch {
					case o.Relations&Hypernym != 0 && (p.sym == "@" || p.sym == "@i") && p.src == 0:
						add(key, fs[0], target.words, Hypernym, i+1)
					case o.Relations&Hyponym != 0 && (p.sym == "~" || p.sym == "~i") && p.src == 0:
						add(key, fs[0], target.words, Hyponym, i+1)
					case o.Relations&Derivation != 0 && p.sym == "+" && p.src == word && p.dst > 0 && p.dst <= len(target.words):
						add(key, fs[0], target.words[p.dst-1:p.dst], Derivation, i+1)
					}
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if strings.EqualFold(x, w) {
			return i + 1
		}
	}
	return 0
}

// readData parses one data.<pos> file: synset offset -> words, pointers.
func readData(path string) (map[string]*synset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*synset{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		fs := strings.Fields(line)
		if len(fs) < 4 {
			continue
		}
		n, err := strconv.ParseInt(fs[3], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: synset %s: %w", path, fs[0], err)
		}
		ss := &synset{}
		at := 4
		for j := 0; j < int(n) && at+1 < len(fs); j++ {
			w := fs[at]
			if k := strings.IndexByte(w, '('); k > 0 { // adjective markers: (a), (p), (ip)
				w = w[:k]
			}
			ss.words = append(ss.words, strings.ToLower(w))
			at += 2
		}
		if at >= len(fs) {
			out[fs[0]] = ss
			continue
		}
		np, _ := strconv.Atoi(fs[at])
		at++
		for j := 0; j < np && at+3 < len(fs); j++ {
			st := fs[at+3]
			src, _ := strconv.ParseInt(st[:2], 16, 32)
			dst, _ := strconv.ParseInt(st[2:], 16, 32)
			ss.ptrs = append(ss.ptrs, pointer{sym: fs[at], offset: fs[at+1], pos: fs[at+2][0], src: int(src), dst: int(dst)})
			at += 4
		}
		out[fs[0]] = ss
	}
	return out, sc.Err()
}
