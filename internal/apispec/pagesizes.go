package apispec

// Page sizes from the specification's pagination table: count for the
// object-list endpoints, limit for the metadata (reporting) endpoints.
const (
	DefaultCount = 50
	MaxCount     = 1000
	DefaultLimit = 25
	MaxLimit     = 100
)
