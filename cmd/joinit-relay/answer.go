package main

import (
	"encoding/json"
	"net/http"
)

// answer writes a small JSON body: {"status": "..."}.
func answer(w http.ResponseWriter, status int, text string) int {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": text})
	return status
}
