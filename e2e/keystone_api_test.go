//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// keystoneAPI asks Keystone's identity API v3 what it holds, as the admin:
// the checks of the e2e tests read Keystone, never Terraform's state.
type keystoneAPI struct {
	url, password string // identity v3 URL (…/v3), the admin's password
	token         string
	http          *http.Client
}

func newKeystoneAPI(base, password string) *keystoneAPI {
	return &keystoneAPI{url: base, password: password, http: &http.Client{Timeout: 10 * time.Second}}
}

// login gets a project-scoped admin token (fernet: it outlives a restart of
// Keystone, whose keys stay on disk).
func (k *keystoneAPI) login(ctx context.Context) error {
	body := map[string]any{"auth": map[string]any{
		"identity": map[string]any{"methods": []string{"password"}, "password": map[string]any{
			"user": map[string]any{"name": "admin", "domain": map[string]string{"id": "default"}, "password": k.password}}},
		"scope": map[string]any{"project": map[string]any{"name": "admin", "domain": map[string]string{"id": "default"}}},
	}}
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, k.url+"/auth/tokens", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := k.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("keystone login: %s", resp.Status)
	}
	k.token = resp.Header.Get("X-Subject-Token")
	return nil
}

// get decodes the JSON answer to GET path (relative to …/v3) into v.
func (k *keystoneAPI) get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Auth-Token", k.token)
	resp, err := k.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// keystoneUser is a user as Keystone lists it.
type keystoneUser struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// groupMembers is the names of the group's users; ok is false while no
// group of that name exists.
func (k *keystoneAPI) groupMembers(ctx context.Context, group string) (names map[string]bool, ok bool, err error) {
	var groups struct {
		Groups []struct {
			ID string `json:"id"`
		} `json:"groups"`
	}
	if err := k.get(ctx, "/groups?name="+url.QueryEscape(group), &groups); err != nil {
		return nil, false, err
	}
	if len(groups.Groups) == 0 {
		return nil, false, nil
	}
	var users struct {
		Users []keystoneUser `json:"users"`
	}
	if err := k.get(ctx, "/groups/"+groups.Groups[0].ID+"/users", &users); err != nil {
		return nil, false, err
	}
	names = map[string]bool{}
	for _, u := range users.Users {
		names[u.Name] = true
	}
	return names, true, nil
}

// user is the user of that name in the default domain; nil when none.
func (k *keystoneAPI) user(ctx context.Context, name string) (*keystoneUser, error) {
	var users struct {
		Users []keystoneUser `json:"users"`
	}
	if err := k.get(ctx, "/users?domain_id=default&name="+url.QueryEscape(name), &users); err != nil {
		return nil, err
	}
	if len(users.Users) == 0 {
		return nil, nil
	}
	return &users.Users[0], nil
}
