# A Keystone group whose members are the active Join It members. The module
# provisions the users itself: one local user per e-mail address that any
# membership read has, named by that address (lower-cased), enabled only
# while one of its memberships is active. A member who leaves loses the
# group and the login in the same apply; their user is disabled, never
# deleted on a status change. Three guards stop a plan before it changes
# anything: too few active members (a wrong token, filter or organization
# reads nobody), too many removals at once, and records of another
# organization.

data "joinit_memberships" "all" {
  # Every status: a user is kept (disabled) for a member who left, so it
  # must be read whatever its status is now.
  membership_names = var.membership_names
  # Only what the sync and its guard read.
  fields = ["id", "organization_id", "email", "status"]

  lifecycle {
    postcondition {
      condition     = var.organization_id == null || alltrue([for r in self.records : r.organization_id == null || r.organization_id == var.organization_id])
      error_message = "Memberships of another organization than ${coalesce(var.organization_id, "-")} were read: the access token may belong to another organization. Nothing was changed."
    }
  }
}

locals {
  # The statuses of each address's memberships: an address may belong to
  # several memberships (a family, a renewal), and Keystone names a user once
  # per domain. Addresses compare without case or surrounding space.
  emails = { for r in data.joinit_memberships.all.records : r.id => lower(trimspace(r.email == null ? "" : r.email)) }
  statuses = {
    for r in data.joinit_memberships.all.records : local.emails[r.id] => r.status... if local.emails[r.id] != ""
  }
  # Each address, and whether one of its memberships has the status asked.
  active = { for email, s in local.statuses : email => contains(s, var.status) }

  desired   = toset([for email, a in local.active : email if a])
  previous  = coalesce(var.previous_members, toset([]))
  to_add    = sort(setsubtract(local.desired, local.previous))
  to_remove = sort(setsubtract(local.previous, local.desired))

  # A fraction counts the previous members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.previous)) : var.max_removals
}

resource "openstack_identity_group_v3" "this" {
  name        = var.group_name
  domain_id   = var.domain_id
  description = "The active Join It members, kept by Terraform."

  # On the group, which every plan holds: a failed guard fails the plan,
  # so no user or membership changes either.
  lifecycle {
    precondition {
      condition     = length(local.desired) >= var.min_members
      error_message = "Read ${length(local.desired)} active members with an e-mail address, fewer than min_members (${var.min_members}): nothing was changed. Check the token, the organization and the filters."
    }
    precondition {
      condition     = length(local.to_remove) <= local.max_removals
      error_message = "This plan would remove ${length(local.to_remove)} of the group's ${length(local.previous)} members, more than max_removals allows (${local.max_removals}): nothing was changed. Check the filters and the token; if the removals are meant, raise max_removals for this plan."
    }
  }
}

# One user per address, whatever the status: a member who leaves is
# disabled, so Keystone refuses their login, and keeps their user (and
# whatever role assignments or resources hang on its id) for their return.
resource "openstack_identity_user_v3" "member" {
  for_each = local.active

  name        = each.key
  domain_id   = var.domain_id
  enabled     = each.value
  description = "A Join It member, kept by Terraform: enabled while a membership is active."
  extra       = { email = each.key }
}

resource "openstack_identity_user_membership_v3" "member" {
  for_each = local.desired

  user_id  = openstack_identity_user_v3.member[each.key].id
  group_id = openstack_identity_group_v3.this.id
}
