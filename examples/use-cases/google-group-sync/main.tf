# Keeps a Google Workspace group's members equal to the active Join It
# members, by e-mail address, beside the owners and managers listed in
# keep_members, through examples/modules/google-group.
#
# Join It: JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
# Google: a service account's key from GOOGLEWORKSPACE_CREDENTIALS (a path
# to the JSON key or the JSON itself; the provider also reads
# GOOGLEWORKSPACE_CLOUD_KEYFILE_JSON and GOOGLE_CREDENTIALS), with
# domain-wide delegation of the scope below, acting as an admin who may
# manage the group.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    googleworkspace = {
      source  = "SamuZad/googleworkspace"
      version = "~> 0.11"
    }
  }
}

provider "joinit" {}

provider "googleworkspace" {
  customer_id             = var.google_customer_id # or GOOGLEWORKSPACE_CUSTOMER_ID
  impersonated_user_email = var.google_admin_email # or GOOGLEWORKSPACE_IMPERSONATED_USER_EMAIL
  # Only what the sync calls (members.list, insert, delete); the key's
  # domain-wide delegation must grant exactly these.
  oauth_scopes = ["https://www.googleapis.com/auth/admin.directory.group.member"]
}

variable "group_email" {
  description = "The Google Workspace group the sync keeps, by address."
  type        = string
}

variable "google_customer_id" {
  description = "The Workspace account's customer ID (Admin console, Account settings), as C0123abcd."
  type        = string
}

variable "google_admin_email" {
  description = "The administrator the service account acts as: one who may manage the group's members."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

module "google_group" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/google-group?ref=v0.1.0"

  group_email = var.group_email
  # The group's owners and managers, as Google lists them: kept whatever
  # Join It says.
  keep_members    = { "it-admin@example.org" = "OWNER" }
  member_domains  = []
  min_members     = 20
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Adopt the group as it is: creating the resource would insert every member
# again, and Google refuses one who is already there. Once in state, this
# block does nothing.
import {
  to = module.google_group.googleworkspace_group_members.this
  id = "groups/${var.group_email}"
}

# Counts, not lists: a plan log holds no addresses.
output "members" {
  value = length(module.google_group.planned)
}

output "to_add" {
  value = length(module.google_group.to_add)
}

output "to_remove" {
  value = length(module.google_group.to_remove)
}

output "not_found" {
  value = length(module.google_group.not_found)
}
