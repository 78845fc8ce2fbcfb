# Keeps an Entra ID group equal to the Entra users of the active members.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    azuread = {
      source  = "hashicorp/azuread"
      version = "~> 3.9"
    }
  }
}

# JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
provider "joinit" {}

# ARM_TENANT_ID and ARM_CLIENT_ID from the environment, and the
# application's credential: ARM_CLIENT_SECRET, ARM_CLIENT_CERTIFICATE_PATH
# (and _PASSWORD), ARM_USE_OIDC=true with ARM_OIDC_TOKEN, or ARM_USE_MSI=true
# (ARM_USE_AKS_WORKLOAD_IDENTITY=true reads AZURE_TENANT_ID). Microsoft Graph
# application permissions: User.Read.All and GroupMember.ReadWrite.All (the
# provider's docs name Group.Read.All and Group.ReadWrite.All).
provider "azuread" {}

variable "group_object_id" {
  description = "The Entra group's object ID (a UUID, not \"/groups/<uuid>\")."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

module "entra_group" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/entra-id-group?ref=v0.1.0"

  group_object_id = var.group_object_id
  organization_id = var.joinit_organization_id
  min_members     = 1
  max_removals    = 0.1
}

# Adopts the members the group holds and keeps; then a no-op.
import {
  for_each = setsubtract(module.entra_group.planned, module.entra_group.to_add)
  to       = module.entra_group.azuread_group_member.this[each.key]
  id       = "${var.group_object_id}/member/${each.key}"
}

# Counts, not lists: addresses are personal data, and plan logs keep them.
output "to_add" {
  value = length(module.entra_group.to_add)
}

output "to_remove" {
  value = length(module.entra_group.to_remove)
}

output "addresses_not_found" {
  value = length(module.entra_group.not_found)
}
