package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// idClaims are the id_token claims worth showing: who the token is for.
type idClaims struct {
	Subject string `json:"sub"`
	Email   string `json:"email"`
}

// decodeIDToken reads the claims of a JWT WITHOUT verifying its signature:
// the command shows them for information only, and trusts the token because
// it came straight from the token endpoint over TLS, not because of them.
func decodeIDToken(jwt string) (idClaims, error) {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return idClaims{}, errors.New("not a JWT (want three dot-separated parts)")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return idClaims{}, errors.New("the payload is not base64url")
	}
	var c idClaims
	if err := json.Unmarshal(raw, &c); err != nil {
		return idClaims{}, errors.New("the payload is not a JSON object of claims")
	}
	return c, nil
}
