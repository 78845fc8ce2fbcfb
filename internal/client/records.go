package client

import (
	"bytes"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Every field is a pointer: the specification says any field can be null or
// absent, and Terraform must see null, not a zero value. RawJSON holds the
// record's JSON as the API sent it, only when the read asked for it; text
// that was not valid Unicode shows there as repaired (U+FFFD, see
// textrepair.go), since Terraform strings must be valid UTF-8.

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

// MembershipSummary is what the lean read keeps of a membership: who it is,
// and its type to filter by.
type MembershipSummary struct {
	ID             *string `json:"_id"`
	Email          *string `json:"email"`
	MembershipType *string `json:"membership_type"`
	MembershipName *string `json:"membership_name"`
	// Status is decoded only under a status filter, to check it.
	Status *int64 `json:"status"`
	// OrganizationID is decoded only when the organization guard is set
	// (Config.OrganizationID), to check it.
	OrganizationID *string `json:"organization_id"`
}

// Profile is a membership's profile. The address's name and shape are not
// documented, so it is kept as text: a JSON string as its value, anything
// else as its compact JSON.
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

// CustomAnswer is one answer to a custom field. The element shape is not in
// the specification; the public examples show strings, but an answer that is
// a number, a list or an object is kept as its JSON text rather than lost.
type CustomAnswer struct {
	QuestionID *string   `json:"question_id"`
	Question   *string   `json:"question"`
	Answer     *JSONText `json:"answer"`
}

// Payment is one payment record. Amounts are the integers the API returns
// (most likely the currency's smallest unit; the specification does not say).
type Payment struct {
	ID             *string    `json:"_id"`
	OrganizationID *string    `json:"organization_id"`
	MemberID       *string    `json:"member_id"`
	MembershipIDs  *[]*string `json:"membership_ids"`
	Channel        *string    `json:"channel"`
	Status         *int64     `json:"status"`
	Currency       *string    `json:"currency"`
	Subtotal       *int64     `json:"subtotal"`
	Total          *int64     `json:"total"`
	PaymentDate    *string    `json:"payment_date"`
	Created        *string    `json:"created"`
	Updated        *string    `json:"updated"`
	RawJSON        string     `json:"-"`
}

// Group is one group record. The specification does not show its fields:
// id, organization_id and name are kept where present, and RawJSON always.
type Group struct {
	ID             *string `json:"_id"`
	AltID          *string `json:"id"`
	OrganizationID *string `json:"organization_id"`
	Name           *string `json:"name"`
	RawJSON        string  `json:"-"`
}

// OrgMetric is one organization metrics record. It has no id.
type OrgMetric struct {
	OrganizationID    *string `json:"organization_id"`
	MetricPeriodKey   *int64  `json:"metric_period_key"`
	ActiveMemberships *int64  `json:"active_memberships"`
	RawJSON           string  `json:"-"`
}

// OrgMetrics is a whole org metrics read.
type OrgMetrics struct {
	Results []OrgMetric
	// TotalPages is the server's totalPages for the page size used.
	TotalPages int
}

// JSONText holds a value of undocumented shape as text.
type JSONText string

// UnmarshalJSON keeps strings as their value and anything else as compact JSON.
func (t *JSONText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := jsonv2.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = JSONText(s)
		return nil
	}
	v := jsontext.Value(bytes.Clone(b))
	if err := v.Compact(); err != nil {
		return err
	}
	*t = JSONText(v)
	return nil
}

// record is what the pager needs of a record type.
type record interface {
	// dedupKey identifies the record across pages; "" means it has no
	// identity, and is never taken for a duplicate.
	dedupKey() string
	setRaw([]byte)
}

func (m *Membership) dedupKey() string        { return deref(m.ID) }
func (m *Membership) setRaw(r []byte)         { m.RawJSON = string(r) }
func (m *MembershipSummary) dedupKey() string { return deref(m.ID) }

// withStatus is a membership record whose status a status filter checks.
type withStatus interface{ statusValue() *int64 }

func (m *Membership) statusValue() *int64        { return m.Status }
func (m *MembershipSummary) statusValue() *int64 { return m.Status }

// withOrganization is a record the organization guard checks.
type withOrganization interface{ organizationValue() *string }

func (m *Membership) organizationValue() *string        { return m.OrganizationID }
func (m *MembershipSummary) organizationValue() *string { return m.OrganizationID }
func (p *Payment) organizationValue() *string           { return p.OrganizationID }
func (g *Group) organizationValue() *string             { return g.OrganizationID }
func (m *OrgMetric) organizationValue() *string         { return m.OrganizationID }

func (m *MembershipSummary) setRaw([]byte) {} // a summary has no raw JSON
func (p *Payment) dedupKey() string        { return deref(p.ID) }
func (p *Payment) setRaw(r []byte)         { p.RawJSON = string(r) }
func (m *OrgMetric) dedupKey() string      { return "" }
func (m *OrgMetric) setRaw(r []byte)       { m.RawJSON = string(r) }

func (g *Group) dedupKey() string {
	if g.ID != nil {
		return *g.ID
	}
	return deref(g.AltID)
}
func (g *Group) setRaw(r []byte) { g.RawJSON = string(r) }

// GroupID is the group's _id, or its id where the API names it so.
func (g *Group) GroupID() *string {
	if g.ID != nil {
		return g.ID
	}
	return g.AltID
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
