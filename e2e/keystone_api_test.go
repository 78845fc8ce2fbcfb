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
	resp, err := k.do(ctx, http.MethodGet, path, http.StatusOK)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

// do sends a request without a body to path (relative to …/v3), which
// must be answered with status want.
func (k *keystoneAPI) do(ctx context.Context, method, path string, want int) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, k.url+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Auth-Token", k.token)
	resp, err := k.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != want {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return resp, nil
}

// idOf is the id of the one project or role (kind "projects", "roles")
// of that name.
func (k *keystoneAPI) idOf(ctx context.Context, kind, name string) (string, error) {
	var answer map[string]json.RawMessage // the list, and "links"
	if err := k.get(ctx, "/"+kind+"?name="+url.QueryEscape(name), &answer); err != nil {
		return "", err
	}
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(answer[kind], &list); err != nil {
		return "", fmt.Errorf("%s named %s: %w", kind, name, err)
	}
	if len(list) != 1 {
		return "", fmt.Errorf("%d %s named %s", len(list), kind, name)
	}
	return list[0].ID, nil
}

// grantRole gives a user a role on a project, both by name, as an operator
// would: what the module never touches and a user's id carries.
func (k *keystoneAPI) grantRole(ctx context.Context, userID, project, role string) error {
	p, err := k.idOf(ctx, "projects", project)
	if err != nil {
		return err
	}
	r, err := k.idOf(ctx, "roles", role)
	if err != nil {
		return err
	}
	resp, err := k.do(ctx, http.MethodPut, "/projects/"+p+"/users/"+userID+"/roles/"+r, http.StatusNoContent)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// hasRole says whether a user holds a role on a project (both by name)
// directly.
func (k *keystoneAPI) hasRole(ctx context.Context, userID, project, role string) (bool, error) {
	p, err := k.idOf(ctx, "projects", project)
	if err != nil {
		return false, err
	}
	r, err := k.idOf(ctx, "roles", role)
	if err != nil {
		return false, err
	}
	var list struct {
		RoleAssignments []json.RawMessage `json:"role_assignments"`
	}
	q := url.Values{"user.id": {userID}, "scope.project.id": {p}, "role.id": {r}}
	if err := k.get(ctx, "/role_assignments?"+q.Encode(), &list); err != nil {
		return false, err
	}
	return len(list.RoleAssignments) > 0, nil
}

// keystoneUser is a user as Keystone lists it: its extra attributes come
// as fields of their own.
type keystoneUser struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	// The module's key of the user: the id of the oldest membership of
	// its address.
	MembershipID string `json:"joinit_membership_id"`
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
