# Keeps an Okta group equal to the Okta users of the active members.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    okta = {
      source  = "okta/okta"
      version = "~> 6.12"
    }
  }
}

# JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
provider "joinit" {}

# OKTA_ORG_NAME (dev-123456), OKTA_BASE_URL (okta.com), and OKTA_API_TOKEN
# (its admin a Group Membership Admin of the group, or more) or a service
# app's OKTA_API_CLIENT_ID, OKTA_API_PRIVATE_KEY, OKTA_API_PRIVATE_KEY_ID and
# OKTA_API_SCOPES=okta.users.read,okta.groups.read,okta.groups.manage.
provider "okta" {}

variable "okta_group_id" {
  description = "The Okta group (of type OKTA_GROUP) the members are kept in: its id, 00g…"
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

module "okta_group" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/okta-group?ref=v0.1.0"

  group_id        = var.okta_group_id
  organization_id = var.joinit_organization_id
  min_members     = 1
  max_removals    = 0.1
}

# Adopts the group as it is ("/true": track_all_users); then a no-op.
import {
  to = module.okta_group.okta_group_memberships.this
  id = "${var.okta_group_id}/true"
}

# Counts, not lists: addresses are personal data, and plan logs keep them.
output "to_add" {
  value = length(module.okta_group.to_add)
}

output "to_remove" {
  value = length(module.okta_group.to_remove)
}

output "addresses_not_found" {
  value = length(module.okta_group.not_found)
}
