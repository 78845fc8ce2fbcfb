package testutil

import (
	"fmt"
	"strings"
)

// MemberJSON is a small membership record with that id, as the API sends it.
func MemberJSON(id string) string {
	return fmt.Sprintf(`{"_id":%q,"email":"%s@example.com","status":100}`, id, id)
}

// ArrayOf is a count-style page: a JSON array of MemberJSON records.
func ArrayOf(ids []string) []byte {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = MemberJSON(id)
	}
	return []byte("[" + strings.Join(parts, ",") + "]")
}

// PageOf returns the ids of one page of a list, the way the API slices it.
func PageOf(ids []string, page, size int) []string {
	lo := (page - 1) * size
	if page < 1 || lo >= len(ids) {
		return nil
	}
	return ids[lo:min(lo+size, len(ids))]
}
