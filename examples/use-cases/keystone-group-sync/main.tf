# A Keystone group of the active Join It members, and their users, through
# examples/modules/openstack-group. `make e2e` applies it against a real
# Keystone, started by joinit-relay on the sandbox's webhooks.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    openstack = {
      source  = "terraform-provider-openstack/openstack"
      version = "~> 3.4"
    }
  }
}

# JOINIT_ACCESS_TOKEN (and JOINIT_BASE_URL for another API than Join It's).
provider "joinit" {}

# OS_AUTH_URL, OS_USERNAME, OS_PASSWORD, OS_PROJECT_NAME,
# OS_USER_DOMAIN_NAME, OS_PROJECT_DOMAIN_NAME, OS_REGION_NAME (or OS_CLOUD):
# an admin of the domain.
provider "openstack" {}

variable "organization_id" {
  description = "The Join It organization whose members the group holds: records of another stop the plan."
  type        = string
}

variable "max_removals" {
  description = "Most members one apply may remove: a whole number, or a fraction below 1 of the group."
  type        = number
  default     = 0.1
}

variable "existing_group_id" {
  description = "The id of a Keystone group named joinit-members to adopt, when one exists already; null creates it."
  type        = string
  default     = null
}

# The group as the last apply left it, for max_removals: the members
# output of this local state (none before the first apply). With a remote
# backend, read it with data "terraform_remote_state".
locals {
  previous_members = try(jsondecode(file("${path.root}/terraform.tfstate")).outputs.members.value, null)
}

module "group" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/openstack-group?ref=v0.1.0"

  group_name       = "joinit-members"
  organization_id  = var.organization_id
  max_removals     = var.max_removals
  previous_members = local.previous_members
}

# Adopts an existing group (not its users). Only a root holds imports.
import {
  for_each = var.existing_group_id == null ? toset([]) : toset([var.existing_group_id])
  to       = module.group.openstack_identity_group_v3.this
  id       = each.value
}

output "members" {
  description = "The group's members as applied, by user key (membership ids, no addresses): read back at the next plan as previous_members."
  value       = module.group.planned
}
