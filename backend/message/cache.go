package message

// Cache codes: what the processed-document cache (Settings, "Remember
// processed documents on this computer") tells the student. None of them
// stops an add: the PDF is processed again instead.
const (
	CacheDamaged  = "cache.damaged"   // doc: the PDF's short id; why: checksum or encoding. The entry was deleted and is rebuilt.
	CacheReset    = "cache.reset"     // the cache file was damaged: it was set aside and started afresh
	CacheDiskFull = "cache.disk_full" // the disk is full: the cache is off until Vika restarts
	CacheOpen     = "cache.open"      // detail (English only): the cache could not be opened; documents are processed as usual
)

func init() {
	english[CacheDamaged] = func(p Params) string {
		return "A remembered copy of a processed PDF (" + str(p, "doc") + ") was damaged (" + str(p, "why") + "): it was deleted and the PDF is processed again."
	}
	english[CacheReset] = fixed("The file of remembered documents was damaged: it was set aside and started afresh.")
	english[CacheDiskFull] = fixed("The disk is full: Vika stops remembering processed documents until it restarts. Nothing else is affected.")
	english[CacheOpen] = func(p Params) string {
		return "The remembered documents cannot be opened (" + str(p, "detail") + "): PDFs are processed as usual."
	}
}
