import { TestButton } from '../../settings/Tools.js';
import { LOCKED_WHY, type EnergyFeaturePage } from '../page-section.js';
import { rescanInverters, testGateway } from './gateway-tests.js';
import { SmartLoadNamesEditor, StringNamesEditor } from './NamesEditors.js';

export const gatewayPage: EnergyFeaturePage = {
  name: 'gateway',
  sections: [
    {
      key: 'gateway',
      explainer: (
        <p>
          The bridge reads your battery system's gateway over your home network, using its address. If you do not know the address, the setup page can search your
          network for it. "Test connection" checks an address before you save it.
        </p>
      ),
      tools: (g, { locked }) => (
        <>
          <TestButton label="Test connection" disabled={locked ? LOCKED_WHY : String(g.host ?? '').trim() ? null : 'Enter the gateway address first.'} run={() => testGateway(String(g.host ?? ''), Number(g.port) || undefined)} />
          <TestButton label="Find inverters again" disabled={locked ? LOCKED_WHY : null} run={rescanInverters} />
        </>
      ),
    },
    {
      key: 'polling',
      explainer: <p>How often the bridge asks the gateway for new readings. Every few seconds keeps the dashboard lively; the gateway needs at least a second between questions.</p>,
    },
  ],
};

export const namesPage: EnergyFeaturePage = {
  name: 'names',
  sections: [
    {
      key: 'names',
      explainer: <p>Give your inverters, solar strings and smart loads names you recognise; they appear on the dashboard instead of numbers.</p>,
      editors: { 'names.smartLoads': SmartLoadNamesEditor, 'names.strings': StringNamesEditor },
    },
  ],
};
