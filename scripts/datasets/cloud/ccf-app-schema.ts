/**
 * The shape of `shared/data/ccf/instance_types.json` (the CCF app's instance tables, trunk b7a049c7) that every
 * reader of it shares: the records' identity, specs and platform embodied figure. A reader needing more fields
 * extends these (`CcfAppEc2Record.extend({ … })`), so the base stays as small as the smallest reader, and hand-made
 * inputs in unit tests need only what their reader reads.
 */
import * as z from 'zod';

/** `aws.ec2_records[]`: one EC2 type of `EC2_INSTANCE_TYPES`, with its family's last (largest) type. */
export const CcfAppEc2Record = z.object({
  family: z.string(),
  instance_type: z.string(),
  vcpu: z.number(),
  memory_gb: z.number(),
  platform_embodied_tco2e: z.number().nullable(),
  family_largest_vcpu: z.number(),
});

/** `azure.vm_records[]`: one size of `VIRTUAL_MACHINE_TYPE_SERIES_MAPPING`, with its series' largest size. */
export const CcfAppVmRecord = z.object({
  series: z.string(),
  vm_size: z.string(),
  vcpu: z.number(),
  memory_gb: z.number(),
  platform_embodied_tco2e: z.number().nullable(),
  series_largest_vcpu: z.number(),
});

/** `gcp.machine_records[]`: one machine type of `MACHINE_FAMILY_…` (no memory figure: the app has none for GCP). */
export const CcfAppMachineRecord = z.object({
  family: z.string(),
  machine_type: z.string(),
  vcpu: z.number(),
  platform_embodied_tco2e: z.number().nullable(),
  family_largest_vcpu: z.number(),
});

/** The file with those records; extend a provider's object for its other lists. */
export const CcfAppFileSchema = z.object({
  aws: z.object({ ec2_records: z.array(CcfAppEc2Record) }),
  azure: z.object({ vm_records: z.array(CcfAppVmRecord) }),
  gcp: z.object({ machine_records: z.array(CcfAppMachineRecord) }),
});
