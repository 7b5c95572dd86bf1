package embed

import (
	"fmt"

	"vika/backend/models"
	"vika/backend/onnx"
)

// BERTBatchSize is how many passages a BERT-family model reads per call
// ($VIKA_EMBED_BATCH_SIZE overrides it). Its attention holds a
// batch x 12 heads x tokens x tokens matrix per layer: at 32 passages of
// 512 tokens that is 400 MB a matrix, and adding the ten shared PDFs with
// the box's models peaked at 4.3 GB of resident memory (`vika bench drop`).
// Eight passages a call keep it a quarter of that; ONNX Runtime gains
// little from larger batches on a CPU.
const BERTBatchSize = 8

// BERTOptionsFor returns the options of registry model m installed under
// root (models.Root() in the app): its verified files, its name, pooling,
// query and passage prefixes and truncation length, the ONNX Runtime library of package assets, the batch
// size from $VIKA_EMBED_BATCH_SIZE and the thread count from
// $VIKA_EMBED_THREADS. Which model serves which language is
// models.Embedder ($VIKA_EMBED_MODEL_EN, $VIKA_EMBED_MODEL_MULTI).
func BERTOptionsFor(root string, m models.Model) (BERTOptions, error) {
	if m.Role != models.RoleEmbedder || (m.Pooling != "mean" && m.Pooling != "cls") || m.Output != "last_hidden_state" {
		return BERTOptions{}, fmt.Errorf("embed: %s is not a mean- or cls-pooled sentence encoder", m.Name)
	}
	o := BERTOptions{Name: m.Name, MaxTokens: m.MaxTokens, Pooling: m.Pooling,
		PassagePrefix: m.PassagePrefix, QueryPrefix: m.QueryPrefix}
	var err error
	if o.Model, o.Tokenizer, err = models.Locate(root, m); err != nil {
		return o, err
	}
	o.Library, o.BatchSize, o.Threads, err = onnx.RuntimeSettings(BERTBatchSize)
	return o, err
}

// Open loads the embedder that c names: USE-lite from package assets
// (DefaultUSELiteOptions), or registry model c.Model installed under root
// (BERTOptionsFor: its files are verified first).
func Open(root string, c models.Choice) (Embedder, error) {
	if c.Model == nil {
		o, err := DefaultUSELiteOptions()
		if err != nil {
			return nil, err
		}
		e, err := LoadUSELite(o)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	o, err := BERTOptionsFor(root, *c.Model)
	if err != nil {
		return nil, err
	}
	e, err := LoadBERT(o)
	if err != nil {
		return nil, err
	}
	return e, nil
}
