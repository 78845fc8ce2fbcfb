# Every active membership, with profile and custom answers. A status is
# written by name, or by its code: status = 100 reads the same.
data "joinit_memberships" "active" {
  status = "active"
}

# A lean read for large organizations: only ids and e-mail addresses, no
# per-membership records.
data "joinit_memberships" "everyone" {
  include_records = false
}

# Only the attributes a module uses: records holds objects with exactly
# these attributes; phones, birthdays and addresses stay out of state.
data "joinit_memberships" "active_slim" {
  status = "active"
  fields = ["email", "membership_name"]
}

# Only some membership types, filtered by the provider after the read.
data "joinit_memberships" "corporate_and_family" {
  status           = "active"
  membership_names = ["Corporate", "Family"]
  include_records  = false
}

# Keep each record's JSON to reach fields the schema does not model.
data "joinit_memberships" "active_raw" {
  status           = "active"
  include_raw_json = true
}

output "active_count" {
  value = length(data.joinit_memberships.active.memberships)
}

output "active_by_membership_name" {
  description = "Active member e-mail addresses, grouped by membership type name."
  value = {
    for m in data.joinit_memberships.active.memberships :
    coalesce(m.membership_name, "(none)") => m.email...
    if m.email != null
  }
}

output "expiring_before_2027" {
  description = "E-mail addresses of active memberships that expire before 2027 (lifetime and auto-renewing memberships have no expiration date)."
  value = [
    for m in data.joinit_memberships.active.memberships : m.email
    if m.email != null && timecmp(coalesce(m.expiration_date, "9999-12-31T00:00:00Z"), "2027-01-01T00:00:00Z") < 0
  ]
}

output "all_member_emails" {
  value = data.joinit_memberships.everyone.emails
}

output "profile_pictures" {
  description = "A field outside the schema, read from raw_json."
  value = {
    for m in data.joinit_memberships.active_raw.memberships :
    m.id => try(jsondecode(m.raw_json).profile_pic, null)
  }
}

output "active_emails_by_membership_name" {
  description = "The same grouping as active_by_membership_name, from the slim read."
  value = {
    for m in data.joinit_memberships.active_slim.records :
    coalesce(m.membership_name, "(none)") => m.email...
    if m.email != null
  }
}

output "corporate_and_family_emails" {
  value = data.joinit_memberships.corporate_and_family.emails
}
