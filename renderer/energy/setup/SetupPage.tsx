import { useEffect, useState } from 'react';
import { api, ApiError, messageOf } from '../../api.js';
import { navigate } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { PasscodePanel } from '../settings/PasscodePanel.js';
import { getIn, schemaAt } from '../settings/form-values.js';
import { plainMessage } from '../settings/plain.js';
import { useSettings } from '../settings/use-settings.js';
import { EssentialsStep, type Essentials } from './EssentialsStep.js';
import { GatewayStep } from './GatewayStep.js';
import { PasscodeStep } from './PasscodeStep.js';
import { SigenImportOffer, SigenImportStep } from './SigenImportStep.js';

type Obj = Record<string, Record<string, unknown>>;

const num = (v: string): number | null | string => (v.trim() === '' ? null : Number.isFinite(Number(v)) ? Number(v) : v);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Server field paths → the wizard field that shows the message. */
const FIELD_OF: Record<string, keyof Essentials | 'host'> = {
  'gateway.host': 'host',
  'gateway.port': 'host',
  'battery.capacityKwh': 'capacityKwh',
  'battery.reserveSoc': 'reserveSoc',
  'general.currency': 'currency',
  'tariff.importRate': 'importRate',
  'tariff.feedInRate': 'feedInRate',
  'tariff.dailySupplyCharge': 'dailySupplyCharge',
  'weather.location': 'location',
  'weather.enabled': 'weather',
};

/** First-run wizard: find and test the gateway, then battery, tariff and location, save, then an optional passcode. */
export function SetupPage() {
  const { settings, schema, error: loadError, reload } = useSettings();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [host, setHost] = useState('');
  const [port, setPort] = useState('502');
  const [ess, setEss] = useState<Essentials | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof Essentials | 'host', string>>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    if (!settings || ess) return;
    const s = settings as unknown as Obj;
    setHost(str(s.gateway?.host));
    setPort(str(s.gateway?.port ?? 502));
    setEss({
      capacityKwh: str(s.battery?.capacityKwh),
      reserveSoc: str(s.battery?.reserveSoc),
      currency: str(s.general?.currency ?? 'AUD'),
      importRate: str(s.tariff?.importRate ?? 0),
      feedInRate: str(s.tariff?.feedInRate ?? 0),
      dailySupplyCharge: str(s.tariff?.dailySupplyCharge ?? 0),
      location: str(s.weather?.location),
      weather: s.weather?.enabled === true,
    });
  }, [settings, ess]);

  if (loadError && !settings) return <Banner kind="error">{loadError}</Banner>;
  if (!settings || !ess) return <p className="muted">Loading…</p>;
  const locked = settings.passcodeSet && !settings.unlocked;

  const save = async () => {
    setSaving(true);
    setErrors({});
    setStatus(null);
    const body = {
      gateway: { host: host.trim(), port: num(port) },
      battery: { capacityKwh: num(ess.capacityKwh), reserveSoc: num(ess.reserveSoc) },
      general: { currency: ess.currency.trim().toUpperCase() },
      tariff: { importRate: num(ess.importRate) ?? 0, feedInRate: num(ess.feedInRate) ?? 0, dailySupplyCharge: num(ess.dailySupplyCharge) ?? 0 },
      // A new place name is looked up again (geocoding): drop coordinates picked for the old one.
      weather: { location: ess.location.trim(), enabled: ess.weather, ...(ess.location.trim() !== str((settings as unknown as Obj).weather?.location).trim() ? { latitude: null, longitude: null } : {}) },
    };
    try {
      await api.put('/api/settings', body);
      setStep(3);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid' && err.field) {
        const target = FIELD_OF[err.field];
        const text = plainMessage(err.field, schema ? schemaAt(schema, err.field) : undefined, getIn(body, err.field.split('.')), err.message);
        if (target === 'host') setStep(1);
        if (target) setErrors({ [target]: text });
        else setStatus(err.message);
      } else {
        setStatus(messageOf(err));
        if (err instanceof ApiError && err.code === 'locked') void reload();
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <h1>Set up the energy bridge</h1>
      <ol className="steps" aria-label="Steps">
        <li aria-current={step === 1 ? 'step' : undefined}>1. Gateway</li>
        <li aria-current={step === 2 ? 'step' : undefined}>2. Essentials</li>
        <li aria-current={step === 3 ? 'step' : undefined}>3. Passcode</li>
      </ol>
      {step === 3 ? (
        <PasscodeStep passcodeSet={settings.passcodeSet} onDone={() => navigate('/')} />
      ) : locked ? (
        <>
          <Banner kind="info">A settings passcode is set. Unlock to continue the setup.</Banner>
          <PasscodePanel passcodeSet unlocked={false} onChange={() => void reload()} />
        </>
      ) : importing ? (
        <SigenImportStep onCancel={() => setImporting(false)} onDone={() => navigate('/')} />
      ) : step === 1 ? (
        <>
          <SigenImportOffer onOpen={() => setImporting(true)} />
          <GatewayStep host={host} port={port} setHost={setHost} setPort={setPort} error={errors.host ?? null} onNext={() => setStep(2)} schema={schema ?? null} />
        </>
      ) : (
        <EssentialsStep value={ess} set={(p) => setEss({ ...ess, ...p })} errors={errors} onBack={() => setStep(1)} onSave={() => void save()} saving={saving} schema={schema ?? null} />
      )}
      {status && <Banner kind="error">{status}</Banner>}
    </>
  );
}
