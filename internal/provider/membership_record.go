package provider

import (
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// membership is the record joinit_memberships lists and joinit_membership
// looks up; both declare its attributes with membershipAttrs.
type membership = client.Membership

// membershipFields are the attributes `fields` chooses from.
var membershipFields = recordFields{what: "membership", attrs: membershipAttrs(),
	json: map[string]string{"id": "_id", "status_name": "status", "raw_json": ""}}

func membershipAttrs() []tfattr.Attr {
	return []tfattr.Attr{
		tfattr.Str("id", "Membership identifier (the API's `_id`).", func(m *membership) *string { return m.ID }),
		tfattr.Str("organization_id", "Owning organization.", func(m *membership) *string { return m.OrganizationID }),
		tfattr.Str("external_id", "External membership ID.", func(m *membership) *string { return m.ExternalID }),
		tfattr.Str("email", "Member e-mail address; may be null.", func(m *membership) *string { return m.Email }),
		tfattr.Str("display_name", "Display name.", func(m *membership) *string { return m.DisplayName }),
		tfattr.Str("membership_type", "Identifier of the membership type.", func(m *membership) *string { return m.MembershipType }),
		tfattr.Str("membership_name", "Name of the membership type.", func(m *membership) *string { return m.MembershipName }),
		tfattr.Num("status", "Status code: "+knownStatusCodes()+"; other codes may appear.", func(m *membership) *int64 { return m.Status }),
		tfattr.Str("status_name", "Name of `status`: "+knownStatusNames()+", or unknown for any other code.", func(m *membership) *string { return statusName(m.Status) }),
		tfattr.Str("joined", "When the membership started."+timestampNote, func(m *membership) *string { return m.Joined }),
		tfattr.Str("expiration_date", "When the membership expires; null for lifetime or auto-renewing memberships."+timestampNote, func(m *membership) *string { return m.ExpirationDate }),
		tfattr.Str("rebilling_date", "When an auto-renewing membership re-bills; may be null."+timestampNote, func(m *membership) *string { return m.RebillingDate }),
		tfattr.Str("created", "Creation time."+timestampNote, func(m *membership) *string { return m.Created }),
		tfattr.Str("updated", "Last update time."+timestampNote, func(m *membership) *string { return m.Updated }),
		tfattr.Str("customer_id", "Payment customer identifier; may be null.", func(m *membership) *string { return m.CustomerID }),
		tfattr.Str("subscription_id", "Subscription identifier; may be null.", func(m *membership) *string { return m.SubscriptionID }),
		tfattr.Object("profile", "Profile information; null when the API sends none.", func(m *membership) *client.Profile { return m.Profile }, profileAttrs()...),
		tfattr.ObjectList("custom_answers", "Answers to custom fields.", func(m *membership) ([]client.CustomAnswer, bool) {
			if m.CustomAnswers == nil {
				return nil, false
			}
			return *m.CustomAnswers, true
		}, customAnswerAttrs()...),
		tfattr.Str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null. Use `jsondecode` to reach fields this provider does not model.", func(m *membership) *string { return nonEmpty(&m.RawJSON) }),
	}
}

func profileAttrs() []tfattr.Attr {
	type p = client.Profile
	return []tfattr.Attr{
		tfattr.Str("first_name", "First name.", func(x *p) *string { return x.FirstName }),
		tfattr.Str("last_name", "Last name.", func(x *p) *string { return x.LastName }),
		tfattr.Str("company", "Company.", func(x *p) *string { return x.Company }),
		tfattr.Str("phone", "Phone number.", func(x *p) *string { return x.Phone }),
		tfattr.Str("job_title", "Job title.", func(x *p) *string { return x.JobTitle }),
		tfattr.Str("birthday", "Date of birth."+timestampNote, func(x *p) *string { return x.Birthday }),
		tfattr.Str("gender", "Gender.", func(x *p) *string { return x.Gender }),
		tfattr.Str("facebook", "Facebook profile.", func(x *p) *string { return x.Facebook }),
		tfattr.Str("twitter", "Twitter profile.", func(x *p) *string { return x.Twitter }),
		tfattr.Str("linkedin", "LinkedIn profile.", func(x *p) *string { return x.LinkedIn }),
		tfattr.Str("address", "Address. Its shape is not documented: a string as sent, anything else as its JSON text (use `jsondecode`).", func(x *p) *string { return (*string)(x.Address) }),
	}
}

func customAnswerAttrs() []tfattr.Attr {
	type a = client.CustomAnswer
	return []tfattr.Attr{
		tfattr.Str("question_id", "Identifier of the custom field.", func(x *a) *string { return x.QuestionID }),
		tfattr.Str("question", "The question.", func(x *a) *string { return x.Question }),
		tfattr.Str("answer", "The answer; an answer that is not a string is given as its JSON text.", func(x *a) *string { return (*string)(x.Answer) }),
	}
}
