package client

import (
	"context"
	"net/url"
	"reflect"
	"strconv"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// Membership is one membership record.
type Membership struct {
	ID             *string         `json:"_id"`
	OrganizationID *string         `json:"organization_id"`
	ExternalID     *string         `json:"external_id"`
	Email          *string         `json:"email"`
	DisplayName    *string         `json:"display_name"`
	MembershipType *string         `json:"membership_type"`
	MembershipName *string         `json:"membership_name"`
	Status         *int64          `json:"status"`
	Joined         *string         `json:"joined"`
	ExpirationDate *string         `json:"expiration_date"`
	RebillingDate  *string         `json:"rebilling_date"`
	Created        *string         `json:"created"`
	Updated        *string         `json:"updated"`
	CustomerID     *string         `json:"customer_id"`
	SubscriptionID *string         `json:"subscription_id"`
	Profile        *Profile        `json:"profile"`
	CustomAnswers  *[]CustomAnswer `json:"custom_answers"`
	RawJSON        string          `json:"-"`
}

// MembershipSummary is what the lean read keeps of a membership.
type MembershipSummary struct {
	ID             *string `json:"_id"`
	Email          *string `json:"email"`
	MembershipType *string `json:"membership_type"`
	MembershipName *string `json:"membership_name"`
	Status         *int64  `json:"status"`          // decoded under a status filter only
	OrganizationID *string `json:"organization_id"` // decoded for the organization guard only
}

// Profile is a membership's profile; the address, of undocumented shape,
// is kept as text.
type Profile struct {
	FirstName *string   `json:"first_name"`
	LastName  *string   `json:"last_name"`
	Company   *string   `json:"company"`
	Phone     *string   `json:"phone"`
	JobTitle  *string   `json:"job_title"`
	Birthday  *string   `json:"birthday"`
	Gender    *string   `json:"gender"`
	Facebook  *string   `json:"facebook"`
	Twitter   *string   `json:"twitter"`
	LinkedIn  *string   `json:"linkedin"`
	Address   *JSONText `json:"address"`
}

// CustomAnswer is one answer to a custom field; an answer that is not a
// string is kept as its JSON text.
type CustomAnswer struct {
	QuestionID *string   `json:"question_id"`
	Question   *string   `json:"question"`
	Answer     *JSONText `json:"answer"`
}

func (m *Membership) Key() string { return deref(m.ID) }

func (m *Membership) SetRaw(r []byte) { m.RawJSON = string(r) }

func (m *MembershipSummary) Key() string { return deref(m.ID) }

// withStatus is a membership record whose status a status filter checks.
type withStatus interface{ statusValue() *int64 }

func (m *Membership) statusValue() *int64 { return m.Status }

func (m *MembershipSummary) statusValue() *int64 { return m.Status }

func (m *Membership) organizationValue() *string { return m.OrganizationID }

func (m *MembershipSummary) organizationValue() *string { return m.OrganizationID }

func (m *MembershipSummary) SetRaw([]byte) {}

// MembershipQuery selects memberships.
type MembershipQuery struct {
	// Status, when set, is the API's status filter, and checked on every
	// record returned.
	Status *int64
	ListOptions
}

// Memberships reads every membership matching q, in API order.
func (c *Client) Memberships(ctx context.Context, q MembershipQuery) ([]Membership, error) {
	return readMemberships[Membership](ctx, c, listRead[Membership]{kind: "full", fields: q.Fields}, q)
}

// MembershipSummaries is the lean read: every membership matching q as a
// summary (_id, email, and the fields q.Fields names); KeepRaw is ignored.
func (c *Client) MembershipSummaries(ctx context.Context, q MembershipQuery) ([]MembershipSummary, error) {
	q.KeepRaw = false
	return readMemberships[MembershipSummary](ctx, c, listRead[MembershipSummary]{kind: "summary", fields: append([]string{"email"}, q.Fields...)}, q)
}

// readMemberships reads memberships as T.
func readMemberships[T any, PT interface {
	*T
	record
	withStatus
}](ctx context.Context, c *Client, l listRead[T], q MembershipQuery) ([]T, error) {
	l.endpoint, l.opts = apispec.EndpointMemberships, q.ListOptions
	if q.Status != nil {
		l.filters = url.Values{"status": {strconv.FormatInt(*q.Status, 10)}}
		l.fields = pagejson.WithMember(l.fields, "status") // checked on every record
		l.filter = func(ctx context.Context, ms []T) []T { return keepStatus[T, PT](ctx, c, ms, *q.Status) }
	}
	r, err := readList[T, PT](ctx, c, l)
	return r.records, err
}

// keepStatus leaves out memberships of another status than the filter
// asked for: a server ignoring the filter must not grant expired members
// access.
func keepStatus[T any, PT interface {
	*T
	withStatus
}](ctx context.Context, c *Client, ms []T, status int64) []T {
	kept := ms[:0]
	for i := range ms {
		if s := PT(&ms[i]).statusValue(); s != nil && *s == status {
			kept = append(kept, ms[i])
		}
	}
	if dropped := len(ms) - len(kept); dropped > 0 {
		c.cfg.Logger.Warn(ctx, "the server returned memberships of another status than the status filter asked for; they were left out", map[string]any{
			"endpoint": apispec.EndpointMemberships, "status": status, "left_out": dropped, "kept": len(kept),
		})
	}
	clear(ms[len(kept):]) // let the left-out records go
	return kept
}

// profileFields is the width of a nested profile: one value a field.
var profileFields = int64(len(pagejson.FieldIndex(reflect.TypeFor[Profile]())))

// customAnswerFields is the width of a nested custom answer: one value a field.
var customAnswerFields = int64(len(pagejson.FieldIndex(reflect.TypeFor[CustomAnswer]())))

func (m *Membership) weigh() (nested, text int64) {
	text = textOf(m.ID, m.OrganizationID, m.ExternalID, m.Email, m.DisplayName, m.MembershipType, m.MembershipName,
		m.Joined, m.ExpirationDate, m.RebillingDate, m.Created, m.Updated, m.CustomerID, m.SubscriptionID) + int64(len(m.RawJSON))
	if p := m.Profile; p != nil {
		nested += profileFields
		text += textOf(p.FirstName, p.LastName, p.Company, p.Phone, p.JobTitle, p.Birthday, p.Gender, p.Facebook, p.Twitter, p.LinkedIn, (*string)(p.Address))
	}
	if m.CustomAnswers != nil {
		for i := range *m.CustomAnswers {
			a := &(*m.CustomAnswers)[i]
			nested += 1 + customAnswerFields
			text += textOf(a.QuestionID, a.Question, (*string)(a.Answer))
		}
	}
	return nested, text
}

func (m *MembershipSummary) weigh() (nested, text int64) {
	return 0, textOf(m.ID, m.Email, m.MembershipType, m.MembershipName, m.OrganizationID)
}
