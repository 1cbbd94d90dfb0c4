import { TestButton } from '../../settings/Tools.js';
import { LOCKED_WHY, type EnergyFeaturePage } from '../page-section.js';
import { PlaceSearch } from './PlaceSearch.js';
import { testWeather } from './weather-test.js';

export const weatherPage: EnergyFeaturePage = {
  name: 'weather',
  sections: [
    {
      key: 'weather',
      explainer: <p>With your town or coordinates the dashboard shows the outdoor temperature and today's forecast beside your solar.</p>,
      editors: { 'weather.location': PlaceSearch },
      tools: (w, { locked }) => (
        <TestButton
          label="Test weather"
          disabled={locked ? LOCKED_WHY : String(w.location ?? '').trim() || typeof w.latitude === 'number' ? null : 'Enter a place name or coordinates first.'}
          run={() => testWeather(w)}
        />
      ),
    },
  ],
};
