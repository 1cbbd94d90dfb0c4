import { z } from 'zod';

/** The solar plant (settings section `solar`), owned by the outlook feature. */
export const solarSettings = z
  .object({
    ratedKwp: z
      .number()
      .positive()
      .max(1000)
      .nullable()
      .default(null)
      .meta({ applies: 'live', description: "The solar panels' rated size in kWp. Until three days of its own history are known, the solar forecast assumes 0.8 kWh per kWh/m² of sunlight for each kWp." }),
  })
  .strict();
