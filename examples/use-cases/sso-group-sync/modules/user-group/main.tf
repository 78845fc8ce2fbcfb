# A stand-in for a user group in an SSO directory or a Slack workspace.
#
# It records the desired group in terraform_data (built into Terraform, so
# this example plans without any other provider). In a real configuration,
# replace it with the group and membership resources of your identity or
# chat provider, keyed by the same inputs.
locals {
  # Addresses differing only in case or surrounding spaces are one member.
  members = sort(distinct([for e in var.member_emails : lower(trimspace(e))]))
}

resource "terraform_data" "group" {
  input = {
    name        = var.name
    description = var.description
    members     = local.members
  }
}
