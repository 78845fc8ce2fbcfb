# Keeps a Keystone (OpenStack identity) group equal to the active Join It
# members, through examples/modules/openstack-group: one Keystone user per
# member's e-mail, enabled only while a membership is active. `make e2e`
# applies this configuration against a real Keystone, started by the joinit-relay
# on the sandbox's webhooks.
#
# The providers read their settings from the environment: JOINIT_BASE_URL,
# JOINIT_ACCESS_TOKEN, and OpenStack's OS_AUTH_URL, OS_USERNAME,
# OS_PASSWORD, OS_PROJECT_NAME, OS_USER_DOMAIN_NAME,
# OS_PROJECT_DOMAIN_NAME and OS_REGION_NAME (an admin of the domain: it
# creates users and groups).

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

provider "joinit" {}

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

# The group as the last apply left it, for the max_removals guard: the
# OpenStack provider has no data source that lists a group's users, so the
# members output of this configuration's own state stands for it. Here the
# state is local (during the plan, the file still holds the last apply's
# state; before the first apply it is empty or absent, and no removal is
# checked). With a remote backend, read the same output with
# data "terraform_remote_state" from that backend.
locals {
  previous_members = try(jsondecode(file("${path.root}/terraform.tfstate")).outputs.members.value, null)
}

module "group" {
  source = "../../modules/openstack-group"

  group_name       = "joinit-members"
  organization_id  = var.organization_id
  max_removals     = var.max_removals
  previous_members = local.previous_members
}

output "members" {
  description = "The group's members as applied: read back at the next plan as previous_members."
  value       = module.group.members
}

output "group_id" {
  description = "The Keystone group's id."
  value       = module.group.group_id
}
