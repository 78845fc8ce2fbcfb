# A module that reads every data source of the provider, for the guide
# "Testing modules that read Join It": its tests fill every list with
# mock_provider (tests/mock.tftest.hcl), offline.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

data "joinit_memberships" "active" {
  status = "active"
}

data "joinit_memberships" "active_emails" {
  status          = "active"
  include_records = false
}

data "joinit_memberships" "names" {
  status = "active"
  fields = ["email", "membership_name"]
}

data "joinit_membership" "ana" {
  email = "ana@example.org"
}

data "joinit_membership_types" "all" {}

data "joinit_groups" "all" {}

data "joinit_payments" "all" {}

data "joinit_org_metrics" "all" {}

output "board_first_names" {
  value = sort([for m in data.joinit_memberships.active.memberships : m.profile.first_name if m.membership_name == "Board"])
}

output "first_answers" {
  value = [for m in data.joinit_memberships.active.memberships : m.custom_answers[0].answer if length(coalesce(m.custom_answers, [])) > 0]
}

output "active_emails" {
  value = data.joinit_memberships.active_emails.emails
}

output "names" {
  value = distinct([for r in data.joinit_memberships.names.records : r.membership_name])
}

output "ana" {
  value = {
    first_name = data.joinit_membership.ana.membership.profile.first_name
    answers    = data.joinit_membership.ana.membership.custom_answers[*].answer
  }
}

output "prices" {
  value = { for t in data.joinit_membership_types.all.membership_types : t.membership_name => t.price.value }
}

output "groups" {
  value = data.joinit_groups.all.groups[*].name
}

output "revenue" {
  value = sum(concat([0], [for p in data.joinit_payments.all.payments : p.total]))
}

output "line_descriptions" {
  value = flatten([for p in data.joinit_payments.all.payments : p.lines[*].description])
}

output "latest_active_memberships" {
  value = try(reverse(sort([for r in data.joinit_org_metrics.all.results : format("%08d %d", r.metric_period_key, r.active_memberships)]))[0], null)
}
