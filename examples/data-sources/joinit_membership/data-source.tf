# Grant access only while the membership is active: an e-mail from your
# identity provider, looked up among active memberships (status "active"). A
# person who is not (or no longer) an active member is found = false. The
# defaults are members of joinit-sandbox's demo organization, so the example
# plans against it as it is.
variable "contractor_email" {
  type    = string
  default = "nadia.okafor203@example.com"
}

data "joinit_membership" "contractor" {
  email         = var.contractor_email # compared without regard to case
  status        = "active"
  allow_missing = true
}

# Stands in for the grant: a group membership in your SSO provider, a VPN
# profile, a repository collaborator.
resource "terraform_data" "contractor_access" {
  count = data.joinit_membership.contractor.found ? 1 : 0
  input = data.joinit_membership.contractor.membership.id
}

# A for_each over a list of e-mails: one lookup per person, and one read of
# the list for all of them (and for a joinit_memberships of the same status
# in the same configuration).
variable "on_call_emails" {
  type    = set(string)
  default = ["nadia.okafor203@example.com", "bo@example.com"]
}

data "joinit_membership" "on_call" {
  for_each      = var.on_call_emails
  email         = each.value
  status        = "active"
  allow_missing = true
}

output "on_call_not_active" {
  description = "People on the rota who hold no active membership."
  value       = sort([for email, m in data.joinit_membership.on_call : email if !m.found])
}

output "on_call_membership_names" {
  value = { for email, m in data.joinit_membership.on_call : email => m.membership.membership_name if m.found }
}

# A precondition on found: the plan stops, naming the person, rather than
# handing a module a null membership.
resource "terraform_data" "board_seat" {
  input = data.joinit_membership.contractor.membership

  lifecycle {
    precondition {
      condition     = data.joinit_membership.contractor.found
      error_message = "${var.contractor_email} holds no active membership: revoke the seat or renew the membership."
    }
  }
}

# By id or external id, the keys that are unique: an e-mail is not, since
# one person can hold several memberships (a lookup that matches several
# fails, listing them).
variable "member_external_id" {
  type    = string
  default = "M-10042"
}

data "joinit_membership" "by_external_id" {
  external_id = var.member_external_id
}

output "external_member_status" {
  value = data.joinit_membership.by_external_id.membership.status_name
}
