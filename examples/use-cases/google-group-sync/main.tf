# Keeps a Google Workspace group's members equal to the active Join It
# members, by address, beside the owners and managers in keep_members.
#
# Join It: JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN. Google: a service
# account's JSON key (a path or the JSON) in GOOGLEWORKSPACE_CREDENTIALS
# (or GOOGLEWORKSPACE_CLOUD_KEYFILE_JSON, GOOGLE_CREDENTIALS), delegated
# domain-wide the scope below.

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

# customer_id from GOOGLEWORKSPACE_CUSTOMER_ID; impersonated_user_email, the
# admin the key acts as, from GOOGLEWORKSPACE_IMPERSONATED_USER_EMAIL.
provider "googleworkspace" {
  # Only what the sync calls (members.list, insert, delete): domain-wide
  # delegation must grant exactly these.
  oauth_scopes = ["https://www.googleapis.com/auth/admin.directory.group.member"]
}

variable "group_email" {
  description = "The Google Workspace group the sync keeps, by address."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds."
  type        = string
}

module "google_group" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/google-group?ref=v0.1.0"

  group_email = var.group_email
  # Owners and managers, as Google lists them: kept whatever Join It says.
  keep_members    = { "it-admin@example.org" = "OWNER" }
  min_members     = 20
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Adopt the group as it is (creating the resource would insert every member
# again, and Google refuses one already there); in state, it does nothing.
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
