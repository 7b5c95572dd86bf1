package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// OfferModels are what the offer "Better search for English and French"
// downloads, each unless it or another model doing its job is installed
// (the box holds such models: the offer is then empty): an English sentence encoder far ahead of USE-lite on
// published retrieval benchmarks, a multilingual one trained for retrieval
// (French, and the other languages, are searched with BM25 alone without
// it), and the cross-encoder that reorders the passages found.
var OfferModels = []string{"bge-small-en-v1.5", "multilingual-e5-small", "ms-marco-MiniLM-L-6-v2"}

// Answers to the offer.
const (
	OfferAccepted = "accepted"
	OfferDeclined = "declined"
)

// Offer is the model offer as the window shows it.
type Offer struct {
	// Models are the offered models not installed yet (the variant of
	// this CPU), in OfferModels order; none when all are.
	Models []Status `json:"models"`
	SizeMB int      `json:"size_mb"` // their download size
	// Answer is the user's remembered answer: "", OfferAccepted or
	// OfferDeclined. Declining leaves search as it is (USE-lite, BM25 for
	// other languages); the offer stays in Settings.
	Answer string `json:"answer"`
}

// Offer returns the offer for the models installed under the manager's
// root, with the answer remembered in the file answerPath ("" or a
// missing file: none yet).
func (m *Manager) Offer(answerPath string) (Offer, error) {
	o := Offer{Models: []Status{}}
	byName := map[string]Status{}
	for _, st := range m.Statuses() {
		byName[st.Name] = st
	}
	for _, name := range OfferModels {
		st, ok := byName[name]
		if !ok || st.Installed || servedBy(st, byName) {
			continue
		}
		o.Models = append(o.Models, st)
		o.SizeMB += st.SizeMB
	}
	var err error
	o.Answer, err = ReadOfferAnswer(answerPath)
	return o, err
}

// servedBy reports whether another installed model does st's job: the
// same role for the same languages (the box's ms-marco-MiniLM-L-12-v2 for
// the offered L-6, say), so that the offer offers only what the box lacks.
func servedBy(st Status, all map[string]Status) bool {
	for _, o := range all {
		if o.Name != st.Name && o.Installed && o.Role == st.Role && slices.Equal(o.Languages, st.Languages) {
			return true
		}
	}
	return false
}

// offerFile is the answer's record.
type offerFile struct {
	Answer string    `json:"answer"`
	At     time.Time `json:"at"`
}

// ReadOfferAnswer returns the answer recorded at path, "" when there is
// none. A damaged file counts as no answer, with an error saying so.
func ReadOfferAnswer(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	var f offerFile
	if err := json.Unmarshal(raw, &f); err != nil || (f.Answer != OfferAccepted && f.Answer != OfferDeclined) {
		return "", fmt.Errorf("the model offer's answer in %s is damaged: it is asked again", path)
	}
	return f.Answer, nil
}

// SaveOfferAnswer records answer (OfferAccepted or OfferDeclined) at path,
// creating its directory, replacing the previous record atomically.
func SaveOfferAnswer(path, answer string) error {
	if answer != OfferAccepted && answer != OfferDeclined {
		return fmt.Errorf("model offer: answer %q is neither %s nor %s", answer, OfferAccepted, OfferDeclined)
	}
	if path == "" {
		return errors.New("model offer: no configuration directory to remember the answer in")
	}
	raw, err := json.Marshal(offerFile{Answer: answer, At: time.Now().UTC()})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(raw, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
